import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconFileDownload } from '@tabler/icons-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useReplica } from '@/db/learner/replica-context';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { AnswerFileError, downloadText, makeAnswerFile, rememberAnswerKey } from '@/lib/answer-file';
import { getSession } from '@/lib/session';
import type { Attempt } from '../lib/test-engine';

/** Online and replicating: the result normally arrives within seconds, so the offer waits this long. */
const ONLINE_GRACE_MS = 15_000;

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'saved'; name: string } | { kind: 'error'; reason: AnswerFileError['reason'] | 'failed' };

/**
 * The last resort (docs/answer-file.md): a submitted attempt that has not reached the server can be saved
 * as an answer file, encrypted to the server's key and signed with the session, which anyone
 * uploads later at /answer-file. Offered at once when the device is offline or replication is
 * failing, and after a grace period when it is online (the result is then usually on its way).
 * Everything happens on the device: it works offline.
 */
export function AnswerFileCard({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('answer-file');
  const replica = useReplica();
  const status = useSyncExternalStore(subscribeSyncStatus, getSyncStatus, getSyncStatus);
  const [graceOver, setGraceOver] = useState(false);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const healthy = status.online && (status.phase === 'syncing' || status.phase === 'synced' || status.phase === 'idle');

  useEffect(() => {
    rememberAnswerKey();
    const timer = setTimeout(() => setGraceOver(true), ONLINE_GRACE_MS);
    return () => clearTimeout(timer);
  }, []);

  if (healthy && !graceOver && state.kind === 'idle') return null;

  const save = async () => {
    if (!replica) return;
    setState({ kind: 'busy' });
    try {
      // The test's last changes go into the attempt first (db/attempts/attempt-journal).
      await replica.journal.flush();
      const doc = await replica.db.test_summary.findOne(attemptId).exec();
      if (!doc) throw new AnswerFileError('notSubmitted');
      const { name, text } = await makeAnswerFile(doc.toJSON() as Attempt, getSession()?.token);
      downloadText(name, text);
      setState({ kind: 'saved', name });
    } catch (err) {
      setState({ kind: 'error', reason: err instanceof AnswerFileError ? err.reason : 'failed' });
      if (!(err instanceof AnswerFileError)) console.error('answer file', err);
    }
  };

  const address = `${window.location.origin}${paths.answerFile}`;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="answer-file-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('save.title')}
        </Title>
        <Text size="sm">{t('save.text', { address })}</Text>
        <div>
          <Button leftSection={<IconFileDownload size={16} aria-hidden />} onClick={() => void save()} loading={state.kind === 'busy'} disabled={!replica}>
            {t('save.button')}
          </Button>
        </div>
        {state.kind === 'saved' && (
          <Alert color="green" data-testid="answer-file-saved">
            {t('save.saved', { name: state.name })}
          </Alert>
        )}
        {state.kind === 'error' && (
          <Alert color="red" role="alert">
            {state.reason === 'notSubmitted' ? t('refused.notSubmitted') : t(`save.${state.reason}`)}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
