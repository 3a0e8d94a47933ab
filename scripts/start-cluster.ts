/**
 * `npm run start:cluster` (docs/cluster.md): the same server as `npm start`, as N instances on one
 * PostgreSQL behind one address.
 *
 * - Builds the client when dist/ is missing or stale (as scripts/start.mjs does).
 * - Without DATABASE_URL, starts a PostgreSQL server of its own for development (Debian's
 *   binaries, db/postgres-server.ts) on DATA_DIR/postgres, kept across starts (durable: fsync on),
 *   and uses its database `pariksha`. With DATABASE_URL (a managed PostgreSQL), uses that.
 * - Starts CLUSTER_SIZE instances (default 2) of server/src/index.ts with Node's cluster module:
 *   they share PORT (the primary accepts connections and hands them round-robin to the
 *   instances), DATA_DIR (the same JWT secret, VAPID and answer-file keys, made here once before
 *   the instances start) and the database. The first instance to start migrates and seeds (an
 *   advisory lock); the others find it done. Every response names its instance (X-Instance).
 * - An instance that dies is started again; SIGINT/SIGTERM stop the instances, then PostgreSQL.
 *
 * docs/cluster.md.
 */
import cluster, { type Worker } from 'node:cluster';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type LocalPostgres, startLocalPostgres } from '../server/src/db/postgres-server';
import { loadConfig, parseEnv } from '../server/src/env';
import { ensureAnswerKey } from '../server/src/modules/answer-file/answer-key';
import { loadVapid } from '../server/src/modules/push/vapid';
import { buildClientIfStale } from './build-client.mjs';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The database the local PostgreSQL keeps the server's tables in. */
const DATABASE_NAME = 'pariksha';

/** The instances' count: CLUSTER_SIZE, default 2. */
function clusterSize(): number {
  const raw = process.env.CLUSTER_SIZE;
  if (raw === undefined || raw === '') return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`CLUSTER_SIZE must be a whole number from 1 to 64 (this machine has ${availableParallelism()} cores)`);
    process.exit(1);
  }
  return n;
}

/**
 * PostgreSQL refuses to run as root; as root, postgres-server.ts runs it as the system user
 * `postgres`, which must then pass through DATA_DIR (700) to reach DATA_DIR/postgres: the
 * directory's group becomes `postgres`, with execute only (710): it still lists nothing to
 * anyone else, and every file in it stays 600.
 */
function letPostgresThrough(dataDir: string) {
  if (process.getuid?.() !== 0) return;
  const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
  if (!Number.isInteger(gid)) return;
  const st = statSync(dataDir);
  if (st.gid !== gid) chownSync(dataDir, st.uid, gid);
  if ((st.mode & 0o010) === 0) chmodSync(dataDir, (st.mode & 0o777) | 0o010);
}

/** The local server's database for the server's tables, made on the first start. */
async function ensureDatabase(serverUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${DATABASE_NAME}`;
  return u.toString();
}

async function main() {
  buildClientIfStale(root);
  // As the server does (index.ts): what is made here is its user's alone.
  process.umask(0o077);
  const config = loadConfig(parseEnv());
  // Made once here, before the instances start, so that they do not race to make them: the JWT
  // secret (loadConfig above), the VAPID key pair and the answer-file key, all in DATA_DIR unless
  // their variables are set.
  loadVapid(config);
  ensureAnswerKey(config);

  let postgres: LocalPostgres | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    letPostgresThrough(config.dataDir);
    console.log(`Starting PostgreSQL in ${path.join(config.dataDir, 'postgres')} …`);
    postgres = await startLocalPostgres({ dataDir: path.join(config.dataDir, 'postgres'), durable: true });
    databaseUrl = await ensureDatabase(postgres.url);
    console.log(`PostgreSQL listening at ${databaseUrl} (psql ${databaseUrl})`);
  } else {
    const shown = new URL(databaseUrl);
    shown.password = '';
    console.log(`Using the PostgreSQL at ${shown.toString()}`);
  }

  const size = clusterSize();
  const workerEnv = (i: number): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    // Several instances on one machine: each its own name (the host name and process id by default).
    ...(config.INSTANCE_ID ? { INSTANCE_ID: `${config.INSTANCE_ID}-${i + 1}` } : {}),
  });
  cluster.setupPrimary({
    exec: path.join(root, 'server', 'src', 'index.ts'),
    // tsx's loader (this process runs under it) and the server's V8 flags (scripts/server-flags.mjs).
    execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS],
  });

  let stopping = false;
  const started = new Map<Worker, { slot: number; listened: boolean }>();
  const fork = (slot: number) => {
    const w = cluster.fork(workerEnv(slot));
    started.set(w, { slot, listened: false });
  };
  let listening = 0;
  cluster.on('listening', (w, address) => {
    const info = started.get(w);
    if (info) info.listened = true;
    listening++;
    if (listening === size) {
      const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
      console.log(`${size} instances listening at http://${host}:${address.port} (each response names its instance in X-Instance)`);
    } else if (listening > size) {
      console.log(`instance ${(info?.slot ?? 0) + 1} started again`);
    }
  });

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
            setTimeout(() => {
              if (!w.isDead()) w.process.kill('SIGKILL');
              resolve();
            }, 10_000).unref();
          }),
      ),
    );
    if (postgres) await postgres.stop();
    process.exit(code);
  };

  cluster.on('exit', (w, code, signal) => {
    const info = started.get(w);
    started.delete(w);
    if (stopping || !info) return;
    // One that never listened failed its start (a refused production start, a database it cannot
    // reach): starting it again would fail again.
    if (!info.listened) {
      console.error(`instance ${info.slot + 1} could not start (exit ${signal ?? `code ${code}`}); stopping`);
      void stop(code || 1);
      return;
    }
    console.error(`instance ${info.slot + 1} exited (${signal ?? `code ${code}`}); starting it again`);
    setTimeout(() => {
      if (!stopping) fork(info.slot);
    }, 1000).unref();
  });

  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void stop(0));
  if (config.NODE_ENV === 'production') {
    console.log('Production start: no demo accounts. Make the first admin with npm run create-admin (docs/configuration.md).');
  } else {
    console.log('Demo start: the demo accounts of the README sign in. Set NODE_ENV=production for a real installation.');
  }
  for (let i = 0; i < size; i++) fork(i);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
