import { Alert, Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The form of an admin dialog: the failure (if any) on top, the fields, then Cancel and Save.
 * The browser's own validation is off: the fields show the app's messages in both languages.
 */
export function DialogForm({
  onSubmit,
  onCancel,
  error,
  saveDisabled,
  saving,
  cancelLabel,
  children,
}: {
  onSubmit: () => void;
  onCancel: () => void;
  error: ReactNode;
  saveDisabled: boolean;
  saving: boolean;
  cancelLabel?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button type="submit" disabled={saveDisabled} loading={saving}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
