import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';

/**
 * A new attempt as a device pushes it: at the demo practice set unless `over` says otherwise,
 * started now, nothing answered yet.
 */
export function attemptDoc(id: string, over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  const now = Date.now();
  return {
    id,
    qsid: 'qs-practice-gk',
    st: now,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: {},
    status: 'IN_PROGRESS',
    submittedAt: null,
    updatedAt: now,
    _deleted: false,
    ...over,
  };
}
