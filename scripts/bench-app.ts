import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadMonitor } from '../server/src/lib/overload';

/**
 * The real app for a benchmark's server process, as server/src/index.ts opens it: a fresh data
 * directory, the database with its checkpoints on a worker thread, seeded from fixtures/, the
 * due sets published, and the app (with the load shedder `load` when given, else its own).
 * Imported lazily, so that a parent process that only drives the load does not load the server.
 */
export async function openBenchApp(opts: { prefix: string; env?: Record<string, string>; load?: LoadMonitor }) {
  const { createApp } = await import('../server/src/app');
  const { composeDeps } = await import('../server/src/compose');
  const { openDatabase } = await import('../server/src/db/client');
  const { seedDatabase } = await import('../server/src/db/seed');
  const { loadConfig, parseEnv } = await import('../server/src/env');
  const { createEventBus } = await import('../server/src/lib/events');
  const { createLogger } = await import('../server/src/lib/logger');
  const { createLocalOutbox } = await import('../server/src/lib/outbox');
  const { createRateLimits } = await import('../server/src/lib/rate-limit');
  const { publishDue } = await import('../server/src/modules/questions/publish');

  const dir = mkdtempSync(path.join(tmpdir(), opts.prefix));
  const config = loadConfig(parseEnv({ ...opts.env, DATA_DIR: dir, LOG_LEVEL: 'silent' }));
  const log = createLogger('silent');
  const database = openDatabase(config.dataDir, { backgroundCheckpoints: { onError: (message) => console.error(message) } });
  await seedDatabase(database.db);
  const db = database.db;
  const deps = composeDeps({ db, config, outbox: await createLocalOutbox(db, log), rates: createRateLimits(db), log, events: createEventBus() });
  await publishDue(deps);
  return { dir, config, database, db, deps, app: createApp(deps, opts.load ? { load: opts.load } : {}) };
}
