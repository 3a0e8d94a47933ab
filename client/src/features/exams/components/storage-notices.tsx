import { Alert, Button, Stack, Text } from '@mantine/core';
import { setText } from '@pm/protocol/set-text';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { map } from 'rxjs';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplica } from '@/db/learner/replica-context';
import { useStoreInTransition } from '@/hooks/use-store-in-transition';
import { assessStorage } from '@/db/learner/storage-check';
import { getStorageStatus, subscribeStorageStatus } from '@/db/learner/storage-status';
import { dismissLost, lostVersion, readLost, subscribeLost } from '@/db/attempts/unsent-attempts';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import { formatMegabytes } from '@/lib/storage-preflight';
import { formatDate } from '@/lib/intl-format';

/**
 * What the storage pre-flight found (docs/exams.md "Two tabs, storage and eviction"), checked again whenever the page opens: too
 * little room for the tests (images stop downloading), or a browser that may evict them.
 */
export function StorageNotice() {
  const { t, i18n } = useTranslation('exam-integrity');
  const db = useReplica()?.db ?? null;
  useEffect(() => {
    if (db) void assessStorage(db).catch(() => undefined);
  }, [db]);
  const verdict = useStoreInTransition(subscribeStorageStatus, () => getStorageStatus().verdict);
  if (!verdict) return null;
  if (verdict.short) {
    return (
      <Alert color="red" role="alert" title={t('storage.shortTitle')} data-testid="storage-short">
        {verdict.free === null
          ? t('storage.shortTextNoFigure', { need: formatMegabytes(verdict.need, i18n.language) })
          : t('storage.shortText', { need: formatMegabytes(verdict.need, i18n.language), free: formatMegabytes(verdict.free, i18n.language) })}
      </Alert>
    );
  }
  if (verdict.persisted === false) {
    return (
      <Alert color="yellow" title={t('storage.notPersistedTitle')} data-testid="storage-not-persisted">
        {t('storage.notPersistedText')}
      </Alert>
    );
  }
  return null;
}

/**
 * Attempts the browser deleted before they reached the server (db/attempts/unsent-attempts), reported
 * plainly until the learner says they have read it.
 */
export function LostAttemptsNotice() {
  const { t, i18n } = useTranslation('exam-integrity');
  const replica = useReplica();
  const dbName = replica?.db.name ?? null;
  const version = useStoreInTransition(subscribeLost, lostVersion);
  // Read again when a report is recorded (`version`) or another person's replica opens.
  const lost = dbName && version >= 0 ? readLost(dbName) : [];
  const lang = i18n.language;
  const query = useCallback(
    (db: ReplicaDatabase) => db.question_set.find().$.pipe(map((sets) => new Map(sets.map((s) => [s.id, setText({ l: s.l, inst: '', trans: s.trans, sections: s.sections }, lang).l])))),
    [lang],
  );
  const labels = useReplicaQuery(query).data;
  if (!dbName || lost.length === 0) return null;
  const tests = lost.map((e) => t('lost.item', { set: labels?.get(e.qsid) ?? t('lost.unknownSet'), date: formatDate(e.st, i18n.language) })).join('; ');
  return (
    <Alert color="red" role="alert" title={t('lost.title')} data-testid="lost-attempts">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('lost.text', { count: lost.length, tests })}</Text>
        <Button size="xs" variant="white" color="red" onClick={() => dismissLost(dbName)}>
          {t('lost.dismiss')}
        </Button>
      </Stack>
    </Alert>
  );
}
