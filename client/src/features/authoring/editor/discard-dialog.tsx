import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 'Discard Changes?' (the project's wording for leaving unsaved edits). */
export function DiscardDialog(props: { opened: boolean; onDiscard: () => void; onStay: () => void }) {
  // Nothing is drawn until it is asked (a closed Mantine modal still costs a render when the editor opens).
  return props.opened ? <OpenDiscardDialog {...props} /> : null;
}

function OpenDiscardDialog({ opened, onDiscard, onStay }: { opened: boolean; onDiscard: () => void; onStay: () => void }) {
  const { t } = useTranslation('authoring-editor');
  return (
    <Modal opened={opened} onClose={onStay} title={t('discard.title')} centered zIndex={400}>
      <Text size="sm">{t('discard.text')}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onStay}>
          {t('discard.stay')}
        </Button>
        <Button color="red" onClick={onDiscard}>
          {t('discard.discard')}
        </Button>
      </Group>
    </Modal>
  );
}
