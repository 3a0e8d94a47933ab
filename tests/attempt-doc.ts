import { newAttempt, type TestSummaryDoc } from '@pm/protocol/sync/test-summary';

/**
 * A new attempt as a device pushes it: at the demo practice set unless `over` says otherwise,
 * started now, nothing answered yet.
 */
export function attemptDoc(id: string, over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  // As pushed by a device that has not measured time yet (no `elapsed`).
  const { elapsed: _unmeasured, ...started } = newAttempt(id, 'qs-practice-gk', Date.now());
  return { ...started, _deleted: false, ...over };
}
