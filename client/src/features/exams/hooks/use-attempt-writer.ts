import { useCallback, useRef, useSyncExternalStore } from 'react';
import { newAttempt } from '@pm/protocol/sync/test-summary';
import type { RxDocument } from 'rxdb';
import { patchBetween } from '@/db/attempts/attempt-journal';
import { keepReceipt as keepReceiptIn, type Receipt } from '@/db/attempts/receipts';
import { useReplica } from '@/db/learner/replica-context';
import { serverClock } from '@/db/sync/server-clock';
import i18n from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { type Attempt, newAttemptId } from '../lib/test-engine';

const noSubscribe = () => () => undefined;
const zero = () => 0;

/**
 * Writes an attempt (ARCHITECTURE decision 3: every answer and navigation step is stored before
 * the screen moves on). A change is stored in the replica's attempt journal — one small
 * IndexedDB write — and resolves then; the journal puts it into the attempt's RxDB document a
 * moment later (coalesced) and after a crash when the replica opens. Changes are computed
 * against the attempt as the learner left it (document plus journal), so quick taps never
 * overwrite each other. `elapsed` grows by the monotonic time since the last write while the
 * test is on screen.
 */
export function useAttemptWriter() {
  const replica = useReplica();
  const lastMark = useRef<number | null>(null);
  const docs = useRef(new Map<string, RxDocument<Attempt>>());

  const start = useCallback(
    async (qsid: string): Promise<Attempt> => {
      if (!replica) throw new Error('replica not open');
      const now = serverClock.now();
      const doc: Attempt = newAttempt(newAttemptId(), qsid, now);
      await replica.db.test_summary.insert(doc);
      lastMark.current = performance.now();
      return doc;
    },
    [replica],
  );

  const writeOnce = useCallback(
    async (id: string, change: (a: Attempt) => Partial<Attempt>): Promise<void> => {
      if (!replica) throw new Error('replica not open');
      // The document is looked up once (a query per tap would be an IndexedDB read on every
      // answer); getLatest() is its newest stored state, to which the journal adds its changes.
      let doc = docs.current.get(id);
      if (!doc || doc.collection !== replica.db.test_summary) {
        doc = (await replica.db.test_summary.findOne(id).exec()) ?? undefined;
        if (!doc) return;
        docs.current.set(id, doc);
      }
      const current = replica.journal.view(doc.getLatest().toJSON() as Attempt);
      // A submitted attempt is final (also on the server).
      if (current.status === 'SUBMITTED') return;
      const diff = change(current);
      // Nothing to store (the time since the last write goes with the next change).
      if (Object.keys(diff).length === 0) return;
      const t = performance.now();
      const delta = lastMark.current === null ? 0 : t - lastMark.current;
      lastMark.current = t;
      const next: Attempt = { ...current, ...diff };
      next.elapsed = Math.round((current.elapsed ?? 0) + delta);
      next.updatedAt = Math.max(serverClock.now(), current.updatedAt + 1);
      await replica.journal.record(id, patchBetween(current, next));
    },
    [replica],
  );

  /**
   * Applies `change` to the attempt; resolves once it is stored in IndexedDB (true), or reports
   * a failed write to the learner (false) — a silent failure would be a lost answer.
   */
  const write = useCallback(
    async (id: string, change: (a: Attempt) => Partial<Attempt>): Promise<boolean> => {
      const t0 = performance.now();
      try {
        await writeOnce(id, change);
        // Read by scripts/bench-exam-chromium.ts: how long a change takes to be stored.
        performance.measure('pm:attempt-write', { start: t0 });
        return true;
      } catch (err) {
        console.error('attempt write failed', err);
        notifyError(i18n.t('exam:saveFailed'));
        return false;
      }
    },
    [writeOnce],
  );

  /**
   * Keeps the submission receipt of a submitted attempt on this device (docs/exams.md "Submission receipt"), computed
   * over the attempt as the learner left it — the document with the journal's changes, exactly
   * what replication will push. Resolves with null when the attempt is not submitted.
   */
  const keepReceipt = useCallback(
    async (id: string, meta: { setLabel: string; deviceAt: number }): Promise<Receipt | null> => {
      if (!replica) throw new Error('replica not open');
      const doc = await replica.db.test_summary.findOne(id).exec();
      if (!doc) return null;
      const attempt = replica.journal.view(doc.getLatest().toJSON() as Attempt);
      if (attempt.status !== 'SUBMITTED') return null;
      return keepReceiptIn(replica.db, attempt, meta);
    },
    [replica],
  );

  /** Puts every stored change into the attempts' documents (before showing a result). */
  const flush = useCallback(async () => {
    await replica?.journal.flush();
  }, [replica]);

  /** The test came on screen (resume): time off screen does not count as elapsed. */
  const resume = useCallback(() => {
    lastMark.current = performance.now();
  }, []);

  return { start, write, flush, resume, keepReceipt, ready: replica !== null };
}

/**
 * The attempt as the learner left it: the stored document with the journal's stored changes not
 * in it yet; re-renders (only the caller) when the journal changes. A change on its way to
 * IndexedDB shows once it is kept (nothing is drawn while it is written).
 */
export function useAttemptView(attempt: Attempt): Attempt {
  const journal = useReplica()?.journal ?? null;
  useSyncExternalStore(journal?.subscribe ?? noSubscribe, journal?.getVersion ?? zero);
  return journal ? journal.view(attempt, { storedOnly: true }) : attempt;
}
