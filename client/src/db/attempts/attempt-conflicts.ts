import type { RxConflictHandler } from 'rxdb';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { deepEqual } from '../core/deep-equal';

type Attempt = Omit<TestSummaryDoc, '_deleted'>;
type WithDeleted<D> = D & { _deleted: boolean };

/** `sfs` is the server's own first sighting; it never makes two attempt states different. */
function withoutServerFields(d: WithDeleted<Attempt>) {
  const { sfs: _sfs, ...rest } = d;
  return rest;
}

/**
 * How a device settles an attempt that changed both here and on the server (another device of
 * the same learner, or a push whose answer was lost). Nothing a learner did may be lost
 * (ARCHITECTURE decision 3), so instead of RxDB's default "the server wins":
 * - a submitted attempt on the server is final (it is immutable there) and wins;
 * - a submission on this device wins over an unsubmitted server state;
 * - otherwise the more recently changed state leads and the other contributes the answers it
 *   alone has, so an answer given on either device survives.
 */
export const attemptConflictHandler: RxConflictHandler<Attempt> = {
  isEqual: (a, b) => deepEqual(withoutServerFields(a), withoutServerFields(b)),
  resolve: async ({ newDocumentState: mine, realMasterState: master }) => {
    if (master.status === 'SUBMITTED' && !master._deleted) return master;
    if (master._deleted) return master;
    if (mine.status === 'SUBMITTED') return { ...mine, sfs: master.sfs };
    const [lead, other] = mine.updatedAt >= master.updatedAt ? [mine, master] : [master, mine];
    return { ...lead, sfs: master.sfs, answers: { ...other.answers, ...lead.answers } };
  },
};
