import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A password input with a show/hide toggle that a keyboard can reach and a screen
 * reader can name; Mantine's default toggle is neither focusable nor translated.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation('auth');
  return (
    <PasswordInput
      maxLength={128}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('password.toggle') }}
      {...props}
    />
  );
}
