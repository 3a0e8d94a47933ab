import { ActionIcon, Group, PasswordInput, Tooltip } from '@mantine/core';
import { IconCopy, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';
import { generatePassword } from '../lib/generate-password';

/** A password field with generate (10 random characters) and copy buttons (the person and reset-password dialogs). */
export function GeneratedPasswordInput({
  value,
  onChange,
  label,
  error,
  required,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  error?: string | undefined;
  required?: boolean;
}) {
  const { t } = useTranslation('admin-users');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notifySuccess(t('password.copied'));
    } catch {
      notifyError(t('password.copyFailed'));
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <PasswordInput
        style={{ flex: 1 }}
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        required={required}
        autoComplete="new-password"
      />
      <Tooltip label={t('password.generate')}>
        <ActionIcon size={36} variant="light" aria-label={t('password.generate')} onClick={() => onChange(generatePassword())}>
          <IconRefresh size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('password.copy')}>
        <ActionIcon size={36} variant="light" aria-label={t('password.copy')} disabled={!value} onClick={() => void copy()}>
          <IconCopy size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
