import { Anchor, Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import { useReplica } from '@/db/learner/replica-context';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { rememberSmsKey, smsAnswerLink } from '@/lib/sms-answers';
import type { Attempt } from '../lib/test-engine';

type Link = Awaited<ReturnType<typeof smsAnswerLink>>;

/**
 * "Send my answers by SMS" (docs/sms.md "Answers by SMS"): a submitted attempt that has not
 * reached the server, on a device with no data, can go as one text message. The code is made here,
 * offline, and the phone's own SMS app opens with our number and the text filled in; the learner
 * presses send. Shown only while the device is offline or replication is failing, and only when
 * the code can say the attempt exactly and the device holds its session's key.
 */
export function SmsAnswerCard({ attemptId, detail }: { attemptId: string; detail: Pick<QsDetailDoc, 'questions'> }) {
  const { t, i18n } = useTranslation('answer-file');
  const replica = useReplica();
  const status = useSyncExternalStore(subscribeSyncStatus, getSyncStatus, getSyncStatus);
  const [link, setLink] = useState<Link>(null);
  const noData = !status.online || status.phase === 'offline' || status.phase === 'error';
  const lang = i18n.language === 'hi' ? 'hi' : 'en';

  useEffect(() => rememberSmsKey(), []);

  useEffect(() => {
    if (!replica || !noData) return;
    let live = true;
    void (async () => {
      // The test's last changes go into the attempt first (db/attempts/attempt-journal).
      await replica.journal.flush();
      const doc = await replica.db.test_summary.findOne(attemptId).exec();
      const made = doc ? await smsAnswerLink(doc.toJSON() as Attempt, detail, lang) : null;
      if (live) setLink(made);
    })().catch((err: unknown) => console.error('answer code', err));
    return () => {
      live = false;
    };
  }, [replica, attemptId, detail, lang, noData]);

  if (!noData || !link) return null;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="sms-answer-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('sms.title')}
        </Title>
        <Text size="sm">{t('sms.text')}</Text>
        {link.parts > 1 && <Text size="sm">{t('sms.parts', { count: link.parts })}</Text>}
        {link.textsFollow && <Text size="sm">{t('sms.textsFollow')}</Text>}
        <div>
          <Button component="a" href={link.href} leftSection={<IconMessage size={16} aria-hidden />} data-testid="sms-answer-link">
            {t('sms.button')}
          </Button>
        </div>
        <Text size="xs" c="dimmed">
          {t('sms.after')} <Anchor href={link.href}>{t('sms.again')}</Anchor>
        </Text>
      </Stack>
    </Card>
  );
}
