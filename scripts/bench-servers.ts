/**
 * Child process of bench-api.ts: the real app (seeded, on a temporary data dir) and two baselines
 * built from the same dependencies: a bare Hono hello endpoint, and a bare Hono endpoint reading
 * one row through better-sqlite3. The baselines talk to SQLite directly on purpose: they measure
 * the floor the product's layers (auth, validation, Drizzle, logging) are compared against.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { createApp } from '../server/src/app';
import { composeDeps } from '../server/src/compose';
import type { Deps } from '../server/src/context';
import { openDatabase } from '../server/src/db/client';
import { seedDatabase } from '../server/src/db/seed';
import { loadConfig, parseEnv } from '../server/src/env';
import { createLogger } from '../server/src/lib/logger';
import { createLocalOutbox } from '../server/src/lib/outbox';
import { createEventBus } from '../server/src/lib/events';
import { createRateLimits } from '../server/src/lib/rate-limit';
import { list as listTags } from '../server/src/modules/tags/tags.service';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-bench-'));
const config = loadConfig(parseEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' }));
// Request logs stay on, as in production; they go to stdout, which the parent discards.
const log = createLogger(process.env.BENCH_LOG ?? 'info');
const database = openDatabase(config.dataDir);
await seedDatabase(database.db);
const deps: Deps = composeDeps({ db: database.db, config, outbox: await createLocalOutbox(database.db, log), rates: createRateLimits(database.db), log, events: createEventBus() });

const hello = new Hono().get('/hello', (c) => c.json({ hello: 'world' }));

const raw = new Database(path.join(dir, 'bare.db'));
raw.pragma('journal_mode = WAL');
raw.exec('create table if not exists kv (k text primary key, v text not null)');
raw.prepare('insert or replace into kv values (?, ?)').run('greeting', JSON.stringify({ en: 'Hello', hi: 'नमस्ते' }));
const read = raw.prepare('select k, v from kv where k = ?');
// The same bytes the authenticated read answers, stored in one row: this baseline reads one row
// and sends it, so the comparison measures our layers (token, permissions, validation, routing,
// logging) rather than the size of the answer.
const tagsJson = JSON.stringify(await listTags(deps, 's'));
raw.prepare('insert or replace into kv values (?, ?)').run('tags-s', tagsJson);
const readBody = raw.prepare('select v from kv where k = ?').pluck();
const bare = new Hono()
  .get('/read', (c) => c.json(read.get('greeting')))
  .get('/read-same-size', (c) => c.body(readBody.get('tags-s') as string, 200, { 'content-type': 'application/json' }));

function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<number> {
  return new Promise((resolve) => {
    serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port));
  });
}

const ports = {
  app: await listen(createApp(deps).fetch),
  hello: await listen(hello.fetch),
  bare: await listen(bare.fetch),
};
process.send?.({ ready: true, ports });
process.on('message', (m) => {
  if (m === 'stop') process.exit(0);
});
