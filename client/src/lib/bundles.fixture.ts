import { BUNDLE_TTL_MS, type BundlePayload } from '@pm/protocol/bundle';

/** A one-question shared set as a bundle carries it (docs/live-tests.md "What a bundle holds"), titled `l`. */
export function bundlePayload(free: boolean, l = 'Shared quiz'): BundlePayload {
  const now = Date.now();
  return {
    v: 1,
    iat: now,
    exp: now + BUNDLE_TTL_MS,
    set: { id: 'qs-shared', l, mpq: 1, tm: 1, nm: 0, dur: 10, isM: true, free, inst: '', pts: 1, n: 1, sections: {}, trans: {}, total: 1, count: 1, updatedAt: now, v: 1, tags: { s: [], e: [], c: [] }, _deleted: false },
    detail: {
      id: 'qs-shared',
      isM: true,
      main: { q: ['q-1'], mpq: 1, tm: 1, nm: 0, o: 0 },
      sections: {},
      questions: [{ id: 'q-1', q: '<p>One?</p>', ops: { a: 'Yes', b: 'No' }, qt: 'mcq1', d: '3', trans: {} }],
      v: 1,
      _deleted: false,
    },
    media: {},
  };
}
