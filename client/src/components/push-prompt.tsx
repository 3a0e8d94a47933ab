import { Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReplica } from '../db/learner/replica-context';
import i18n from '../lib/i18n';
import { hideNotification, notifyPersistent, notifySuccess, notifyWarning } from '../lib/notify';
import { dismissPrompt, enablePush, promptDismissedRecently, pushSupported, resendSubscription } from '../lib/push';

export const PUSH_PROMPT_ID = 'push-prompt';

/**
 * The question, as a notification that stays until answered (like the update prompt): it does
 * not move the result page, and both answers are ordinary buttons. "Turn on" asks the browser
 * (its permission dialog needs the click) and subscribes; "Not now" waits 30 days.
 */
export function PushPromptCard() {
  const { t } = useTranslation('push', { useSuspense: false });
  const [busy, setBusy] = useState(false);
  const enable = () => {
    setBusy(true);
    enablePush()
      .then((permission) => {
        hideNotification(PUSH_PROMPT_ID);
        if (permission === 'granted') notifySuccess(t('enabled'));
        else {
          // Denied, or the dialog closed: not asked again for a while (a denial is the browser's to undo).
          dismissPrompt();
          if (permission === 'denied') notifyWarning(t('blocked'));
        }
      })
      .catch(() => {
        hideNotification(PUSH_PROMPT_ID);
        notifyWarning(t('failed'));
      });
  };
  const later = () => {
    dismissPrompt();
    hideNotification(PUSH_PROMPT_ID);
  };
  return (
    <div data-testid="push-prompt">
      <Text size="sm" fw={600}>
        {t('prompt.title')}
      </Text>
      <Text size="sm" mt={4}>
        {t('prompt.text')}
      </Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" onClick={enable} loading={busy}>
          {t('prompt.enable')}
        </Button>
        <Button size="xs" variant="subtle" onClick={later} disabled={busy}>
          {t('prompt.notNow')}
        </Button>
      </Group>
    </div>
  );
}

/**
 * Mounted by the layout on the result page of a signed-in learner (docs/configuration.md "Push messages (Web Push)": ask after a
 * first submitted test, never on a first visit). Asks only when the browser can take push
 * messages, has not been asked (permission "default"), was not told "Not now" lately, is online,
 * and this person's replica holds a submitted attempt. With permission already given, it makes
 * sure the server has this device for whoever is signed in now. Leaving the page takes the
 * question away.
 */
export default function PushPrompt() {
  const replica = useReplica();
  useEffect(() => {
    if (!pushSupported()) return;
    if (Notification.permission === 'granted') {
      void resendSubscription();
      return;
    }
    if (Notification.permission !== 'default' || promptDismissedRecently() || !navigator.onLine || !replica) return;
    let stop = false;
    void replica.db.test_summary
      .findOne({ selector: { status: 'SUBMITTED' } })
      .exec()
      .then(async (submitted) => {
        if (!submitted || stop) return;
        await i18n.loadNamespaces('push').catch(() => undefined);
        if (stop) return;
        notifyPersistent({ id: PUSH_PROMPT_ID, color: 'indigo', withCloseButton: false, message: <PushPromptCard /> });
      })
      .catch(() => undefined);
    return () => {
      stop = true;
      hideNotification(PUSH_PROMPT_ID);
    };
  }, [replica]);
  return null;
}
