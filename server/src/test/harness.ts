import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../app';
import { composeDeps, startRepairs } from '../compose';
import type { Deps } from '../context';
import { type Database_, openDatabase, openPostgres } from '../db/client';
import { createDatabase, dropDatabase } from '../db/postgres-server';
import { seedDatabase } from '../db/seed';
import { loadConfig, parseEnv } from '../env';
import { createLogger } from '../lib/logger';
import { createLocalOutbox } from '../lib/outbox';
import { createEventBus } from '../lib/events';
import { createRateLimits } from '../lib/rate-limit';
import { publishDue } from '../modules/questions/publish';

export const DEMO = {
  admin: { id: 'demo-admin', username: 'admin@example.com', mobile: '9000000001', password: 'admin1234' },
  editor: { id: 'demo-editor', username: 'editor@example.com', mobile: '9000000002', password: 'editor1234' },
  learner: { id: 'demo-learner', username: 'learner@example.com', mobile: '9000000003', password: 'learner1234' },
  beneficiary: { id: 'demo-beneficiary', username: 'beneficiary@example.com', mobile: '9000000004', password: 'beneficiary1234' },
  trustee: { id: 'demo-trustee', username: 'trustee@example.com', mobile: '9000000005', password: 'trustee1234' },
  trustee2: { id: 'demo-trustee-2', username: 'trustee2@example.com', mobile: '9000000006', password: 'trustee1234' },
} as const;

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/**
 * The server the PostgreSQL run of the suites gives every test file (scripts/test-postgres.mjs
 * starts it): each harness then gets a database of its own on it, as it gets a directory of its
 * own on SQLite.
 */
export const TEST_POSTGRES_URL = process.env.PM_TEST_POSTGRES_URL;

/**
 * The database of a harness: a SQLite file in its directory, or with PM_TEST_POSTGRES_URL a new
 * PostgreSQL database whose name is kept in the directory (a harness started again on the same
 * directory opens the same database, as it reopens the same SQLite file).
 */
async function openHarnessDatabase(dataDir: string, backgroundCheckpoints = false): Promise<{ database: Database_; drop: () => Promise<void> }> {
  const pg = await testPostgresDatabase(dataDir);
  if (!pg) {
    const options = backgroundCheckpoints ? { backgroundCheckpoints: { onError: (message: string) => console.error(`background checkpoint failed: ${message}`) } } : {};
    return { database: openDatabase(dataDir, options), drop: async () => undefined };
  }
  // A few connections per file: many files run at once against the one server.
  return { database: await openPostgres(pg.url, { poolMax: 4 }), drop: pg.drop };
}

/**
 * With PM_TEST_POSTGRES_URL, the PostgreSQL database of a data directory (its name kept in the
 * directory, which is created 700 if missing; the database is created on first use); without it,
 * undefined: the directory's SQLite file is the database.
 */
export async function testPostgresDatabase(dataDir: string): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const server = TEST_POSTGRES_URL;
  if (!server) return undefined;
  const nameFile = path.join(dataDir, 'postgres-database');
  let name: string;
  let url: string;
  if (existsSync(nameFile)) {
    name = readFileSync(nameFile, 'utf8');
    const u = new URL(server);
    u.pathname = `/${name}`;
    url = u.toString();
  } else {
    name = `pm_test_${randomUUID().replace(/-/g, '')}`;
    url = await createDatabase(server, name);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(nameFile, name, { mode: 0o600 });
  }
  return { url, drop: () => dropDatabase(server, name) };
}

/**
 * Opens the database of a data directory as the harness does (the SQLite file, or with
 * PM_TEST_POSTGRES_URL the directory's PostgreSQL database): for a test that looks at what a
 * server process or an earlier harness left there. Close it when done.
 */
export async function openTestDatabase(dataDir: string): Promise<Database_> {
  const pg = await testPostgresDatabase(dataDir);
  return pg ? openPostgres(pg.url, { poolMax: 2 }) : openDatabase(dataDir);
}

/**
 * The environment that points a server process (or a script) on `dataDir` at the same database
 * the harness would open there: DATABASE_URL with PM_TEST_POSTGRES_URL, nothing on SQLite.
 */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  const pg = await testPostgresDatabase(dataDir);
  return pg ? { DATABASE_URL: pg.url } : {};
}

/**
 * The real HTTP app on a real database (a SQLite file in a fresh temporary directory, or a fresh
 * PostgreSQL database), seeded from fixtures/, with the local outbox (the product's own adapter)
 * — nothing mocked; SMS go through the real adapter to the local SMS sandbox. `env`: more of the
 * environment (SMS_SANDBOX_PROTOCOL=msg91, …). `backgroundCheckpoints`: SQLite's checkpoints on a worker thread, as the
 * server opens it (index.ts), for a test of what the request thread does during a large write.
 */
export async function startHarness(opts: { dataDir?: string; seed?: boolean; backgroundCheckpoints?: boolean; env?: Record<string, string> } = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'pm-test-'));
  const config = loadConfig(parseEnv({ ...opts.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const log = createLogger('silent');
  const { database, drop } = await openHarnessDatabase(config.dataDir, opts.backgroundCheckpoints);
  if (opts.seed !== false) await seedDatabase(database.db);
  const base = {
    db: database.db,
    config,
    outbox: await createLocalOutbox(database.db, log, { inboxFile: path.join(dataDir, 'local-inbox.jsonl') }),
    rates: createRateLimits(database.db),
    log,
    events: createEventBus(),
  };
  // As at start-up: sets whose publish time has passed are published (before the push service
  // is made: sets published before it are not news to anyone).
  if (opts.seed !== false) await publishDue(base);
  const deps: Deps = composeDeps(base);
  const app = createApp(deps);
  // As at start-up: the start-up repairs (the interval jobs are left to the tests that want them).
  const repaired = startRepairs(deps);

  async function request(
    method: string,
    url: string,
    init: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.rawBody !== undefined) body = init.rawBody;
    else if (init.body !== undefined) body = JSON.stringify(init.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await app.request(`/api${url}`, { method, headers, body });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  }

  function basic(user: string, pass: string) {
    return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }

  async function login(username: string, password: string) {
    return request('POST', '/UserLogin/login', { headers: { authorization: basic(username, password) } });
  }

  async function tokenOf(who: keyof typeof DEMO) {
    const r = await login(DEMO[who].username, DEMO[who].password);
    if (r.status !== 200) throw new Error(`login ${who} failed: ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  }

  return {
    app,
    deps,
    dataDir,
    request,
    basic,
    login,
    tokenOf,
    engine: database.engine,
    /** Settles once the start-up repairs (compose.ts startRepairs) are over. */
    repaired,
    close: () => database.close(),
    destroy: async () => {
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
