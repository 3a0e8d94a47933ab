import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The 'Confirm Delete' question every admin list asks before deleting. */
export function ConfirmDelete({
  name,
  opened,
  busy = false,
  onConfirm,
  onClose,
}: {
  name: string;
  opened: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal opened={opened} onClose={onClose} title={t('common.confirmDelete')} centered>
      <Text mb="md">{t('common.confirmDeleteText', { name })}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy}>
          {t('common.delete')}
        </Button>
      </Group>
    </Modal>
  );
}

/** The 'Discard Changes?' question when leaving a form with unsaved changes. */
export function ConfirmDiscard({ opened, onDiscard, onClose }: { opened: boolean; onDiscard: () => void; onClose: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <Modal opened={opened} onClose={onClose} title={t('common.discardChanges')} centered>
      <Text mb="md">{t('common.discardChangesText')}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.keepEditing')}
        </Button>
        <Button color="red" onClick={onDiscard}>
          {t('common.discard')}
        </Button>
      </Group>
    </Modal>
  );
}
