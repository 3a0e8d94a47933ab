/**
 * `npm run bench:sync` part 4 (docs/benchmarks.md "bench:sync"): initial replication in Chromium of the learner data set
 * (50 sets, 5,000 questions in English and Hindi) into RxDB on IndexedDB, target ≤ 5 s.
 * The real server (scripts/start.mjs' server on the built client) runs on a temporary data
 * directory grown with scripts/bench-data.ts; Chromium signs in as the demo learner, opens the
 * exam list, and the app's own performance marks time the replica from opening the database to
 * "in sync" (every collection pulled). Also printed: login click to 50 cards on screen.
 * Run `npm run build` first (done automatically when dist/ is missing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../server/src/db/client';
import { seedDatabase } from '../server/src/db/seed';
import { createEventBus } from '../server/src/lib/events';
import { publishDue } from '../server/src/modules/questions/publish';
import { growBenchData } from './bench-data';
import { launchChromium, median, startAppServer } from './bench-lib';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export async function benchReplica(): Promise<{ runs: { replicaMs: number; cardsMs: number }[]; docs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-replica-'));
  const database = openDatabase(dir);
  await seedDatabase(database.db);
  await growBenchData(database.db);
  await publishDue({ db: database.db, events: createEventBus() });
  database.close();

  const server = await startAppServer(dir);
  const base = server.base;
  const browser = await launchChromium();
  const runs: { replicaMs: number; cardsMs: number }[] = [];
  let docs = 0;
  try {
    for (let r = 0; r < RUNS; r++) {
      // A fresh profile each run: an empty IndexedDB, as on a new phone.
      const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto('/login');
      const panel = page.getByRole('tabpanel', { name: 'Existing users' });
      await panel.getByLabel('Mobile or e-mail').fill('9000000003');
      await panel.getByLabel(/^Password/).fill('learner1234');
      const t0 = Date.now();
      await panel.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      await page.goto('/exam-list');
      await page.waitForFunction(() => performance.getEntriesByName('pm:replica-in-sync').length > 0, undefined, { timeout: 120_000, polling: 50 });
      await page.getByTestId('availability').filter({ hasText: 'On this device' }).nth(52).waitFor({ timeout: 120_000 });
      const cardsMs = Date.now() - t0;
      const replicaMs = await page.evaluate(() => {
        const open = performance.getEntriesByName('pm:replica-open').at(-1)!;
        const done = performance.getEntriesByName('pm:replica-in-sync').at(-1)!;
        return done.startTime - open.startTime;
      });
      docs = await page.getByTestId(/^exam-card-/).count();
      runs.push({ replicaMs, cardsMs });
      await context.close();
    }
  } finally {
    await browser.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, docs };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { runs, docs } = await benchReplica();
  for (const [i, r] of runs.entries()) console.log(`run ${i + 1}: replica open → in sync ${r.replicaMs.toFixed(0)} ms; login click → ${docs} cards on this device ${r.cardsMs} ms`);
  const m = median(runs.map((r) => r.replicaMs));
  console.log(`chromium initial replication (50 sets, 5,000 questions en+hi, ${docs} sets incl. fixtures): median ${(m / 1000).toFixed(2)} s — target ≤ 5 s ${m <= 5000 ? 'MET' : 'NOT met'}`);
}
