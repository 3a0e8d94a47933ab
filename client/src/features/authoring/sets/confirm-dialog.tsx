import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A yes/no question before something that cannot be taken back (delete, a new version). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red',
  busy = false,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('authoring-bank');
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text component="div" mb="md">
        {children}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color={color} onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
