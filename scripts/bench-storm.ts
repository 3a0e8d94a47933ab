/**
 * The submission storm of bench:sync and bench:cluster: every device (one token each) pushes one
 * submitted attempt at the same moment, each on a socket of its own with its request's bytes
 * built before the start (scripts/raw-http.ts), so that the generator reaches 1,000 devices at
 * once without its own client code becoming the queue it measures. A 503 or 429 is answered as
 * the client does: at least Retry-After, plus up to 1 s of jitter; a timeout or a reset is sent
 * again at once.
 */
import { performance } from 'node:perf_hooks';
import { buildRequest, RawConnection } from './raw-http';

export const SYNC_HEADERS = { 'x-sync-protocol': '1.0.0', 'content-type': 'application/json' };
export const PUSH_PATH = '/api/sync/v1/test_summary/push';

let seq = 0;
/** A test_summary document of bench-set-0 (scripts/bench-data.ts), one answer. */
export function benchAttempt(status: 'IN_PROGRESS' | 'SUBMITTED') {
  return {
    id: `bench-${process.pid}-${++seq}`,
    qsid: 'bench-set-0',
    st: Date.now(),
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: { 'bench-q-0': { ua: 'a', status: 'ANSWERED' } },
    status,
    submittedAt: status === 'SUBMITTED' ? Date.now() : null,
    updatedAt: Date.now(),
    _deleted: false,
  };
}

export type StormResult = {
  ids: string[];
  seconds: number;
  /** Per HTTP request, from the request on the wire to the whole answer. */
  requestLatencies: number[];
  okLatencies: number[];
  busyLatencies: number[];
  /** From the generator's call (its own delay to reach every device included). */
  fromCall: number[];
  /** When each device's first request was on the wire, from the start. */
  firstWritten: number[];
  /** Per device, until its attempt was stored (retries included). */
  untilStored: number[];
  statuses: Map<number, number>;
  /** 503/429 answers that carried Retry-After. */
  busyWithRetryAfter: number;
  triesPerClient: Map<number, number>;
  /** Answers per X-Instance (which instance answered). */
  instances: Map<string, number>;
  failures: number;
  retried: number;
  gaveUp: number;
};

/** `path`: where to push (the app's push, or the bare floor's `/bare/push` in bench-sync-servers.ts). */
export async function runStorm(port: number, tokens: string[], path = PUSH_PATH): Promise<StormResult> {
  const devices = tokens.map((token) => {
    const doc = benchAttempt('SUBMITTED');
    const body = JSON.stringify([{ newDocumentState: doc, assumedMasterState: null }]);
    return { doc, request: buildRequest('POST', `127.0.0.1:${port}`, path, { ...SYNC_HEADERS, authorization: `Bearer ${token}` }, body), conn: new RawConnection(port) };
  });
  const r: StormResult = {
    ids: devices.map((d) => d.doc.id),
    seconds: 0,
    requestLatencies: [],
    okLatencies: [],
    busyLatencies: [],
    fromCall: [],
    firstWritten: [],
    untilStored: [],
    statuses: new Map(),
    busyWithRetryAfter: 0,
    triesPerClient: new Map(),
    instances: new Map(),
    failures: 0,
    retried: 0,
    gaveUp: 0,
  };
  const t0 = performance.now();
  await Promise.all(
    devices.map(async ({ request, conn }) => {
      const started = performance.now();
      for (let tries = 1; ; tries++) {
        if (tries > 20) {
          r.gaveUp++;
          return;
        }
        let res: Awaited<ReturnType<typeof conn.send>>;
        const sent = performance.now();
        try {
          res = await conn.send(request, 10_000);
        } catch {
          r.failures++; // timeout, reset or refused connection: try again at once
          continue;
        }
        const now = performance.now();
        const ms = now - res.written;
        if (tries === 1) r.firstWritten.push(res.written - t0);
        r.fromCall.push(now - sent);
        r.requestLatencies.push(ms);
        r.statuses.set(res.status, (r.statuses.get(res.status) ?? 0) + 1);
        const instance = res.headers['x-instance'];
        if (instance) r.instances.set(instance, (r.instances.get(instance) ?? 0) + 1);
        if (res.status === 429 || res.status === 503) {
          r.busyLatencies.push(ms);
          r.retried++;
          if (res.headers['retry-after'] !== undefined) r.busyWithRetryAfter++;
          // As the client should: at least Retry-After, plus up to a second of jitter.
          const wait = (Number(res.headers['retry-after'] ?? 1) + Math.random()) * 1000;
          await new Promise((done) => setTimeout(done, wait));
          continue;
        }
        r.okLatencies.push(ms);
        r.triesPerClient.set(tries, (r.triesPerClient.get(tries) ?? 0) + 1);
        r.untilStored.push(performance.now() - started);
        return;
      }
    }),
  );
  r.seconds = (performance.now() - t0) / 1000;
  for (const d of devices) d.conn.destroy();
  return r;
}

/** The q-quantile of xs (NaN when empty). */
export const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]! : NaN);
