import { useCallback, useEffect, useState } from 'react';
import { keepLiveKey, keptLiveKey, liveKeyKept$ } from '@/db/learner/live-keys';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { ReplicaDatabase } from '@/db/core/database';
import { type LiveDetail, openPaper, unwrapLiveKey } from '@pm/protocol/live-test';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { LiveKeyDoc } from '@pm/protocol/sync/live-key';
import { map } from 'rxjs';
import type { Detail } from '../lib/test-engine';

/**
 * A live test's paper on the device (docs/live-tests.md "The key schedule"): the set's sealed
 * questions open with the test's key, which comes in the learner's `live_key` document (online,
 * once the server's clock passed the start), in the sync stream's KEY event at the start, or from
 * an unlock code typed here (offline). Keys of the last two are kept in this browser's storage
 * (db/learner/live-keys.ts).
 */

export type LivePaper = {
  /** The live test's times; null for a set that is not one. */
  live: LiveDetail | null;
  /** The detail with its questions, once opened; the detail as it is for any other set. */
  detail: Detail | null;
  /** Whether the learner registered (their device holds a `live_key` document). */
  registered: boolean;
  /** The test's key once the device has it (from the server or a code). */
  key: string | null;
  /** Tries a typed unlock code: 'typo' (not a code), 'wrong' (not this test's) or null (opened). */
  unlock(code: string): Promise<'typo' | 'wrong' | null>;
};

export function useLivePaper(sealed: Detail | null): LivePaper {
  const qsid = sealed?.id ?? '';
  const query = useCallback((db: ReplicaDatabase) => db.live_key.findOne(qsid).$.pipe(map((d) => (d?.toJSON() as LiveKeyDoc | undefined) ?? null)), [qsid]);
  const keyDoc = useReplicaQuery(query).data ?? null;
  // A key from a typed code or the stream, per test (read from storage for a test not unlocked in this visit).
  const [typed, setTyped] = useState<{ qsid: string; key: string } | null>(null);
  const typedKey = typed?.qsid === qsid ? typed.key : qsid ? keptLiveKey(qsid) : null;
  useEffect(() => {
    if (!qsid) return;
    const sub = liveKeyKept$.subscribe((k) => {
      if (k.qsid === qsid) setTyped(k);
    });
    return () => sub.unsubscribe();
  }, [qsid]);
  // The opened paper, for the detail revision and key it was opened with (set only when opening ends).
  const [opened, setOpened] = useState<{ of: string; detail: Detail | null } | null>(null);
  const live = sealed?.live ?? null;
  const key = keyDoc?.key ?? typedKey;
  const openingOf = sealed?.live && key ? `${sealed.id}:${sealed.v}:${sealed.live.paper.iv}:${key}` : null;

  useEffect(() => {
    if (!openingOf || !sealed?.live || !key) return;
    let cancelled = false;
    void openPaper<TestQuestion[]>(key, sealed.id, sealed.live.paper).then((questions) => {
      if (!cancelled) setOpened({ of: openingOf, detail: questions ? { ...sealed, questions } : null });
    });
    return () => {
      cancelled = true;
    };
  }, [openingOf, sealed, key]);
  const openDetail = opened && opened.of === openingOf ? opened.detail : null;

  const unlock = useCallback(
    async (code: string) => {
      if (!sealed?.live) return 'wrong' as const;
      const out = await unwrapLiveKey(code, sealed.id, sealed.live.wk);
      if ('error' in out) return out.error;
      keepLiveKey(sealed.id, out.key);
      return null;
    },
    [sealed],
  );

  return { live, detail: live ? openDetail : sealed, registered: keyDoc !== null, key: openDetail ? key : null, unlock };
}
