/**
 * `npm run bench:lighthouse` (docs/benchmarks.md "bench:lighthouse"): Lighthouse's default mobile run — simulated slow 4G,
 * 4× CPU slowdown, a Moto G Power sized screen — on `/`, `/login`, `/plan` and `/exam-list`
 * (signed in as the demo learner), against the real server (`npm start`'s) on a fresh database,
 * with Debian's Chromium. It prints, per page, the performance, accessibility and best-practices
 * scores and the Web Vitals (FCP, LCP, CLS, TBT, Speed Index), then PASS/FAIL against the targets:
 * performance ≥ 95 on `/` and ≥ 90 elsewhere, accessibility ≥ 95, best practices 100, CLS ≤ 0.05,
 * LCP ≤ 2.0 s.
 *
 * The three public pages run as Lighthouse runs them by default: origin storage and the HTTP
 * cache cleared first, so a first visit. `/exam-list` needs a session: the demo learner signs in
 * through the login form in the same browser, then the service worker and its caches are removed
 * (the session in localStorage stays) and Lighthouse runs without clearing storage — Lighthouse's
 * own recipe for a signed-in page. The HTTP cache stays as well: the first run finds there what the
 * login loaded (the entry, not the exam list's chunks), each later run everything the run before it
 * loaded, and the service worker that run registered, which then serves the app from its cache, as
 * it does for a learner's every visit after the first (the first paint comes earlier, so more of
 * the page's start falls inside the blocking-time window). A run with the HTTP cache cleared too
 * (no copy of the app at all) is a different page: ~400 kB of JavaScript over slow 4G, first paint
 * ~3 s.
 *
 *   npm run bench:lighthouse                build, then measure
 *   npm run bench:lighthouse -- --no-build  measure the dist/ that is there
 *   BENCH_RUNS=3 npm run bench:lighthouse   each page three times; the median run is shown
 *   BENCH_PAGES=/,/login npm run bench:lighthouse   only those pages
 *   npm run bench:lighthouse -- --details   also what shifted, the largest element, the long tasks
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { freePort, median, root, startAppServer } from './bench-lib';

/** The demo learner of fixtures/ (e2e/helpers.ts DEMO). */
const LEARNER = { username: '9000000003', password: 'learner1234' };
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const PAGES: { url: string; signedIn: boolean; perf: number }[] = [
  { url: '/', signedIn: false, perf: 95 },
  { url: '/login', signedIn: false, perf: 90 },
  { url: '/plan', signedIn: false, perf: 90 },
  { url: '/exam-list', signedIn: true, perf: 90 },
];
/** BENCH_PAGES=/login,/plan: only those pages. */
const ONLY = process.env.BENCH_PAGES?.split(',');
const TARGET = { a11y: 95, bestPractices: 100, cls: 0.05, lcpMs: 2000 };

if (!process.argv.includes('--no-build')) {
  console.log('Building the client (vite build) …');
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

type Figures = { perf: number; a11y: number; bp: number; fcp: number; lcp: number; cls: number; tbt: number; si: number };

const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const dataDir = mkdtempSync(path.join(tmpdir(), 'pm-bench-lh-'));
const profile = mkdtempSync(path.join(tmpdir(), 'pm-bench-lh-profile-'));
const server = await startAppServer(dataDir);
const port = await freePort();
// One browser that Playwright drives (to sign in) and Lighthouse attaches to over CDP.
const context = await chromium.launchPersistentContext(profile, {
  ...(systemChromium && { executablePath: systemChromium }),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
});
const results: { url: string; signedIn: boolean; target: number; runs: Figures[] }[] = [];
try {
  for (const p of PAGES) {
    if (ONLY && !ONLY.includes(p.url)) continue;
    if (p.signedIn) await signIn();
    const runs: Figures[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await audit(p.url, p.signedIn));
    results.push({ url: p.url, signedIn: p.signedIn, target: p.perf, runs });
  }
} finally {
  await context.close();
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}

async function signIn(): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.base}/login`);
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(LEARNER.username);
  await panel.getByLabel(/^Password/).fill(LEARNER.password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  await page.evaluate(async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const k of await caches.keys()) await caches.delete(k);
  });
  await page.goto('about:blank');
}

async function audit(url: string, keepStorage: boolean): Promise<Figures> {
  const result = await lighthouse(
    `${server.base}${url}`,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'], disableStorageReset: keepStorage },
    undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits } = result.lhr;
  const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
  const num = (k: string) => audits[k]?.numericValue ?? Number.NaN;
  for (const k of ['accessibility', 'best-practices']) {
    if (score(k) === 100) continue;
    const failing = Object.values(audits)
      .filter((a) => a.score !== null && a.score < 1 && categories[k]?.auditRefs.some((r) => r.id === a.id && r.weight > 0))
      .map((a) => a.id);
    if (failing.length) console.log(`  ${url} ${k}: failing ${failing.join(', ')}`);
  }
  if (process.argv.includes('--details')) details(url, audits);
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    cls: num('cumulative-layout-shift'),
    tbt: num('total-blocking-time'),
    si: num('speed-index'),
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs by performance score) ` : ''}mobile preset: simulated slow 4G, 4× CPU`);
console.log('page         perf  a11y  best   FCP      LCP      CLS     TBT      SI');
let failed = false;
for (const r of results) {
  const perfMedian = median(r.runs.map((x) => x.perf));
  const f = r.runs.find((x) => x.perf === perfMedian) ?? r.runs[0]!;
  console.log(
    `${r.url.padEnd(12)} ${String(f.perf).padStart(4)}  ${String(f.a11y).padStart(4)}  ${String(f.bp).padStart(4)}  ${s(f.fcp).padStart(7)}  ${s(f.lcp).padStart(7)}  ${f.cls.toFixed(3).padStart(6)}  ${`${Math.round(f.tbt)} ms`.padStart(7)}  ${s(f.si).padStart(7)}${r.signedIn ? '  (signed in)' : ''}`,
  );
  if (r.runs.length > 1) console.log(`             every run: performance ${r.runs.map((x) => x.perf).join(', ')}; TBT ${r.runs.map((x) => `${Math.round(x.tbt)}`).join(', ')} ms`);
  const misses = [
    f.perf < r.target && `performance ${f.perf} < ${r.target}`,
    f.a11y < TARGET.a11y && `accessibility ${f.a11y} < ${TARGET.a11y}`,
    f.bp < TARGET.bestPractices && `best practices ${f.bp} < ${TARGET.bestPractices}`,
    f.cls > TARGET.cls && `CLS ${f.cls.toFixed(3)} > ${TARGET.cls}`,
    f.lcp > TARGET.lcpMs && `LCP ${s(f.lcp)} > ${s(TARGET.lcpMs)}`,
  ].filter(Boolean);
  if (misses.length) {
    failed = true;
    console.log(`             FAIL: ${misses.join('; ')}`);
  }
}
console.log(failed ? '\nFAIL: not every target is met' : '\nPASS: every target is met');
if (failed) process.exitCode = 1;

type Audits = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']['audits'];
/** What moved, what the largest paint was, and where the main thread went (`--details`). */
function details(url: string, audits: Audits): void {
  const items = (id: string) => ((audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []);
  const node = (n: unknown) => {
    const x = n as { selector?: string; snippet?: string } | undefined;
    return x ? `${x.selector ?? ''} ${(x.snippet ?? '').slice(0, 90)}` : '';
  };
  console.log(`\n  ${url}`);
  for (const it of items('layout-shifts')) console.log(`    shift ${Number(it.score).toFixed(3)}  ${node(it.node)}`);
  for (const it of items('largest-contentful-paint-element')) {
    const sub = (it as { items?: Record<string, unknown>[] }).items;
    for (const x of sub ?? [it]) console.log(`    LCP  ${node(x.node)} ${x.phase ? `${String(x.phase)} ${Math.round(Number(x.timing))} ms` : ''}`);
  }
  for (const it of items('bootup-time').slice(0, 6)) console.log(`    script ${String(it.url).replace(server.base, '')}  total ${Math.round(Number(it.total))} ms  eval ${Math.round(Number(it.scripting))} ms`);
  // The main thread's long tasks as Lighthouse simulates them (the figures TBT is made of).
  for (const it of items('long-tasks').slice(0, 12)) console.log(`    long task ${String(it.url).replace(server.base, '').padEnd(44)} at ${Math.round(Number(it.startTime))} ms  ${Math.round(Number(it.duration))} ms`);
  for (const it of items('deprecations')) console.log(`    deprecation ${String(it.value)}  ${JSON.stringify(it.source ?? '').slice(0, 160)}`);
  for (const it of items('render-blocking-resources')) console.log(`    blocking ${String(it.url).replace(server.base, '')}  ${Math.round(Number(it.wastedMs))} ms`);
  for (const it of items('network-requests').filter((r) => ['Script', 'Stylesheet', 'Font', 'Image'].includes(String(r.resourceType)))) {
    console.log(`    ${String(it.resourceType).padEnd(10)} ${String(it.url).replace(server.base, '').padEnd(60)} ${(Number(it.transferSize) / 1000).toFixed(1)} kB  ${Math.round(Number(it.networkRequestTime))}–${Math.round(Number(it.networkEndTime))} ms`);
  }
}
