/**
 * `npm run bench:api` (docs/benchmarks.md "bench:api"): autocannon on 127.0.0.1 against GET /api/health and an
 * authenticated read (GET /api/tag?key=s with a learner's token), side by side in the same run
 * with a bare Hono hello endpoint and bare one-row better-sqlite3 read endpoints: one row of a
 * small greeting, and one row holding the very bytes the authenticated read answers (so that the
 * ratio compares the work of our layers, not answer sizes).
 * Target: the authenticated read reaches at least 40% of the bare read's requests/s.
 * The servers run in a child process so that the load generator does not share their event loop.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_DURATION ?? 4);
/** Targets run in interleaved rounds and report the median, so that a noisy moment of the machine hits every target alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const here = path.dirname(fileURLToPath(import.meta.url));

const child = fork(path.join(here, 'bench-servers.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const ports = await new Promise<{ app: number; hello: number; bare: number }>((resolve, reject) => {
  child.on('message', (m: { ready?: boolean; ports?: { app: number; hello: number; bare: number } }) => {
    if (m?.ready && m.ports) resolve(m.ports);
  });
  child.on('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});

try {
  const loginRes = await fetch(`http://127.0.0.1:${ports.app}/api/UserLogin/login`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('9000000003:learner1234').toString('base64')}` },
  });
  const { token } = (await loginRes.json()) as { token: string };
  const check = await fetch(`http://127.0.0.1:${ports.app}/api/tag?key=s`, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`authenticated read answered ${check.status}`);

  const targets = [
    { name: 'bare Hono hello', url: `http://127.0.0.1:${ports.hello}/hello`, headers: {} },
    { name: 'bare SQLite one-row read', url: `http://127.0.0.1:${ports.bare}/read`, headers: {} },
    { name: 'bare SQLite one-row read, same bytes', url: `http://127.0.0.1:${ports.bare}/read-same-size`, headers: {} },
    { name: 'GET /api/health', url: `http://127.0.0.1:${ports.app}/api/health`, headers: {} },
    { name: 'GET /api/tag?key=s (authenticated)', url: `http://127.0.0.1:${ports.app}/api/tag?key=s`, headers: { authorization: `Bearer ${token}` } },
  ];

  const samples = new Map<string, { rps: number; p99: number; errors: number; non2xx: number }[]>();
  for (const t of targets) {
    // A short warm-up so that JIT and SQLite caches are in the same state for every target.
    await autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: 1 });
    samples.set(t.name, []);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      const r = await autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: DURATION });
      samples.get(t.name)!.push({ rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const results = targets.map((t) => {
    const xs = samples.get(t.name)!;
    return {
      name: t.name,
      rps: median(xs.map((x) => x.rps)),
      p99: median(xs.map((x) => x.p99)),
      errors: xs.reduce((n, x) => n + x.errors, 0),
      non2xx: xs.reduce((n, x) => n + x.non2xx, 0),
    };
  });

  const by = (n: string) => results.find((r) => r.name.startsWith(n))!;
  const hello = by('bare Hono');
  // The baseline: a bare one-row read. The same-bytes row is printed for information.
  const bare = by('bare SQLite one-row read');
  const bareSame = by('bare SQLite one-row read, same bytes');
  console.log(`\nautocannon: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION} s per target (medians), 127.0.0.1\n`);
  console.log('target                                   req/s     p99 ms   errors  non-2xx');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} ${r.p99.toFixed(1).padStart(10)} ${String(r.errors).padStart(8)} ${String(r.non2xx).padStart(8)}`,
    );
  }
  const health = by('GET /api/health');
  const auth = by('GET /api/tag');
  const ratio = auth.rps / bare.rps;
  console.log('');
  console.log(`health / bare hello                            ${(health.rps / hello.rps * 100).toFixed(1)} %`);
  console.log(`authenticated read / bare one-row read         ${(ratio * 100).toFixed(1)} %   (target ≥ 40 %: ${ratio >= 0.4 ? 'met' : 'NOT met'})`);
  console.log(`authenticated read / bare read of same bytes   ${(auth.rps / bareSame.rps * 100).toFixed(1)} %   (information)`);
  if (results.some((r) => r.errors > 0 || r.non2xx > 0)) {
    console.log('some requests failed');
    process.exitCode = 1;
  }
} finally {
  child.send('stop');
}
