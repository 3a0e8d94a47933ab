/**
 * `npm run bench:sync` (issue 4): replication throughput of the real server, each figure side by
 * side with a bare baseline built from the same dependencies (Hono + better-sqlite3), on
 * 127.0.0.1 only. The servers run in a child process (scripts/bench-sync-servers.ts) so that the
 * load generator does not share their event loop.
 *   pull:  documents/s for a learner data set of 50 sets and 5,000 questions (en + hi), pages of 200
 *   push:  test_summary documents/s at 20 per request vs a bare 20-row insert transaction (target ≥ 50 %)
 *   storm: 1,000 concurrent clients each pushing one submitted attempt: each stored exactly once,
 *          p99 ≤ 250 ms, no timeouts; overload answers 429/503 with Retry-After
 * The in-browser initial replication figure needs the client replica (issue 4, client part).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';

const here = path.dirname(fileURLToPath(import.meta.url));
const child = fork(path.join(here, 'bench-sync-servers.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
type Ready = { ports: { app: number; bare: number }; tokens: string[]; learnerToken: string };
const ready = await new Promise<Ready>((resolve, reject) => {
  child.on('message', (m: { ready?: boolean } & Partial<Ready>) => {
    if (m.ready && m.ports && m.tokens && m.learnerToken) resolve(m as Ready);
  });
  child.on('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});
const stats = (child as unknown as { send: (m: unknown) => void });

const H = { 'x-sync-protocol': '1.0.0', 'content-type': 'application/json' };
const app = `http://127.0.0.1:${ready.ports.app}`;
const bare = `http://127.0.0.1:${ready.ports.bare}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 2000 });

/** A plain node:http request (no extra dependency), with a timeout. */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function get(url: string, headers: Record<string, string>) {
  const r = await send(url, { headers });
  return { status: r.status, body: JSON.parse(r.text) as { documents: unknown[]; checkpoint: { rev: number } } };
}

/** Pulls a whole collection in pages of 200; returns documents and seconds. */
async function pullAll(base: string, collection: string, headers: Record<string, string>) {
  let rev = 0;
  let docs = 0;
  const t = performance.now();
  for (;;) {
    const r = await get(`${base}/${collection}/pull?rev=${rev}&limit=200`, headers);
    if (r.status !== 200) throw new Error(`pull ${collection}: ${r.status}`);
    docs += r.body.documents.length;
    if (r.body.documents.length === 0) break;
    rev = r.body.checkpoint.rev;
  }
  return { docs, s: (performance.now() - t) / 1000 };
}

function median(xs: number[]) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

try {
  const auth = { ...H, authorization: `Bearer ${ready.learnerToken}` };
  // ---- pull ----
  const pullRounds: { app: number; appQ: number; bare: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const sets = await pullAll(`${app}/api/sync/v1`, 'question_set', auth);
    const detail = await pullAll(`${app}/api/sync/v1`, 'qs_detail', auth);
    const bareQ = await pullAll(`${bare}/bare`, 'question', {});
    pullRounds.push({
      app: (sets.docs + detail.docs) / (sets.s + detail.s),
      appQ: 5000 / detail.s,
      bare: bareQ.docs / bareQ.s,
    });
  }
  // ---- push ----
  async function pushRate(url: string, headers: Record<string, string>, makeBody: (i: number) => unknown, seconds: number) {
    let n = 0;
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    let i = 0;
    const worker = async () => {
      while (performance.now() < end) {
        const r = await send(url, { method: 'POST', headers, body: JSON.stringify(makeBody(i++)) });
        if (r.status === 200) n += 20;
        else errors++;
      }
    };
    const t = performance.now();
    await Promise.all(Array.from({ length: 10 }, worker));
    return { rate: n / ((performance.now() - t) / 1000), errors };
  }
  let seq = 0;
  const attempt = (status: 'IN_PROGRESS' | 'SUBMITTED') => ({
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
  });
  const pushRounds: { app: number; bare: number; errors: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const a = await pushRate(`${app}/api/sync/v1/test_summary/push`, auth, () => Array.from({ length: 20 }, () => ({ newDocumentState: attempt('IN_PROGRESS'), assumedMasterState: null })), 3);
    const b = await pushRate(`${bare}/bare/push`, H, () => Array.from({ length: 20 }, () => ({ newDocumentState: attempt('IN_PROGRESS'), assumedMasterState: null })), 3);
    pushRounds.push({ app: a.rate, bare: b.rate, errors: a.errors + b.errors });
  }
  // ---- storm ----
  const storm = ready.tokens.map((token) => ({ token, doc: attempt('SUBMITTED') }));
  const latencies: number[] = [];
  const requestLatencies: number[] = [];
  const statuses = new Map<number, number>();
  let timeouts = 0;
  let retried = 0;
  const t0 = performance.now();
  await Promise.all(
    storm.map(async ({ token, doc }) => {
      const started = performance.now();
      for (let tries = 0; tries < 20; tries++) {
        try {
          const sent = performance.now();
          const r = await send(`${app}/api/sync/v1/test_summary/push`, {
            method: 'POST',
            headers: { ...H, authorization: `Bearer ${token}` },
            body: JSON.stringify([{ newDocumentState: doc, assumedMasterState: null }]),
            timeoutMs: 10_000,
          });
          requestLatencies.push(performance.now() - sent);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 429 || r.status === 503) {
            retried++;
            const wait = Number(r.headers['retry-after'] ?? 1) * 1000;
            await new Promise((res) => setTimeout(res, wait * (0.5 + Math.random())));
            continue;
          }
          break;
        } catch {
          timeouts++;
        }
      }
      latencies.push(performance.now() - started);
    }),
  );
  const stormSeconds = (performance.now() - t0) / 1000;
  const stored = await new Promise<{ attempts: number; distinct: number }>((resolve) => {
    child.on('message', (m: { stored?: { attempts: number; distinct: number } }) => m.stored && resolve(m.stored));
    stats.send({ count: storm.map((s) => s.doc.id) });
  });

  const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
  const pullApp = median(pullRounds.map((r) => r.app));
  const pullQ = median(pullRounds.map((r) => r.appQ));
  const pullBare = median(pullRounds.map((r) => r.bare));
  const pushApp = median(pushRounds.map((r) => r.app));
  const pushBare = median(pushRounds.map((r) => r.bare));
  console.log('\nbench:sync — 127.0.0.1, medians of 3 interleaved rounds\n');
  console.log(`pull   app: ${pullApp.toFixed(0)} documents/s (question_set + qs_detail, 50 sets), ${pullQ.toFixed(0)} questions/s inside qs_detail`);
  console.log(`       bare: ${pullBare.toFixed(0)} rows/s (200-row pages of a 5,000-row table, JSON out)`);
  console.log(`push   app: ${pushApp.toFixed(0)} test_summary documents/s at 20 per request`);
  console.log(`       bare: ${pushBare.toFixed(0)} rows/s (20-row insert transaction per request)`);
  console.log(`       ratio ${((pushApp / pushBare) * 100).toFixed(1)} %   (target ≥ 50 %: ${pushApp / pushBare >= 0.5 ? 'met' : 'NOT met'})`);
  const p99 = p(requestLatencies, 0.99);
  console.log(`storm  1,000 clients, one submitted attempt each, all done in ${stormSeconds.toFixed(2)} s`);
  console.log(`       per request: p50 ${p(requestLatencies, 0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (target ≤ 250: ${p99 <= 250 ? 'met' : 'NOT met'})`);
  console.log(`       per client until stored (with retries): p50 ${p(latencies, 0.5).toFixed(0)} ms, p99 ${p(latencies, 0.99).toFixed(0)} ms`);
  console.log(`       statuses ${JSON.stringify(Object.fromEntries(statuses))}, retried after 429/503: ${retried}, timeouts/dropped: ${timeouts}`);
  console.log(`       stored ${stored.attempts} rows for ${stored.distinct} distinct attempts of ${storm.length} (exactly once: ${stored.attempts === storm.length && stored.distinct === storm.length ? 'yes' : 'NO'})`);
} finally {
  child.send('stop');
  agent.destroy();
}
