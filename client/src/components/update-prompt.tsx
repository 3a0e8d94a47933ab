import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hideNotification, notifyPersistent } from '../lib/notify';

export const UPDATE_PROMPT_ID = 'app-update';

/**
 * 'Update available for the app. Would you like to update?'. A notification that
 * stays until answered, rather than a modal: it must not interrupt a learner in the middle of a
 * timed test, who can update later (the new version keeps waiting; the next visit asks again).
 * Both buttons are ordinary buttons, reachable with Tab; the text is announced (role alert).
 */
export function UpdatePrompt({ onUpdate }: { onUpdate: () => Promise<void> }) {
  const { t } = useTranslation();
  const [updating, setUpdating] = useState(false);
  const update = () => {
    setUpdating(true);
    // The page reloads once the new worker has taken over; a failure leaves the prompt usable.
    onUpdate().catch(() => setUpdating(false));
  };
  return (
    <div data-testid="update-prompt">
      <Text size="sm">{t('pwa.updateAvailable')}</Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" onClick={update} loading={updating}>
          {t('pwa.update')}
        </Button>
        <Button size="xs" variant="subtle" onClick={() => hideNotification(UPDATE_PROMPT_ID)} disabled={updating}>
          {t('pwa.notNow')}
        </Button>
      </Group>
    </div>
  );
}

/** Shows the update prompt (once: a second call while it is shown changes nothing). */
export function showUpdatePrompt(onUpdate: () => Promise<void>): void {
  notifyPersistent({
    id: UPDATE_PROMPT_ID,
    color: 'indigo',
    withCloseButton: false,
    message: <UpdatePrompt onUpdate={onUpdate} />,
  });
}
