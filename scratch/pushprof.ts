import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { composeDeps } from '../server/src/compose';
import { openDatabase } from '../server/src/db/client';
import { seedDatabase } from '../server/src/db/seed';
import { loadConfig, parseEnv } from '../server/src/env';
import { createEventBus } from '../server/src/lib/events';
import { createLogger } from '../server/src/lib/logger';
import { createLocalOutbox } from '../server/src/lib/outbox';
import { createRateLimits } from '../server/src/lib/rate-limit';
import { publishDue } from '../server/src/modules/questions/publish';
import { pushTestSummaries } from '../server/src/modules/sync/sync.service';
import { growBenchData } from '../scripts/bench-data';
import { benchAttempt } from '../scripts/bench-storm';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-pushprof-'));
const config = loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'warn' }));
const log = createLogger('warn');
const database = openDatabase(config.dataDir, { backgroundCheckpoints: { onError: () => {} } });
await seedDatabase(database.db);
const deps = composeDeps({ db: database.db, config, outbox: await createLocalOutbox(database.db, log), rates: createRateLimits(database.db), log, events: createEventBus() });
await growBenchData(database.db, { learners: 50 });
await publishDue(deps);
const status = (process.env.STATUS ?? 'IN_PROGRESS') as 'IN_PROGRESS' | 'SUBMITTED';
const per = Number(process.env.PER ?? 20);
async function round(n: number) {
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const me = { id: `bench-person-${i % 50}`, name: 'x', permissions: new Set<string>(), sessionId: 's' };
    await pushTestSummaries(deps, me, Array.from({ length: per }, () => ({ newDocumentState: benchAttempt(status) as never, assumedMasterState: null })));
  }
  return ((performance.now() - t) * 1000) / (n * per);
}
await round(200);
const { Session } = await import('node:inspector/promises');
const session = new Session();
session.connect();
if (process.env.PROF) { await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start'); }
for (let r = 0; r < 3; r++) console.log(`µs/doc ${(await round(Number(process.env.N ?? 1000))).toFixed(1)}`);
if (process.env.PROF) { const { profile } = await session.post('Profiler.stop'); (await import('node:fs')).writeFileSync(process.env.PROF, JSON.stringify(profile)); }
process.exit(0);
