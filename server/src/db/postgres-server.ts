import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/*
 * A PostgreSQL server of its own, in a directory of its own, for development (npm run
 * start:cluster) and for the test suites' PostgreSQL run (docs/cluster.md): Debian's `postgresql`
 * binaries (.ci/run installs them when missing), initdb'd on first use, listening on 127.0.0.1
 * only, with trust authentication for the one local user `pm`. Not for production: point
 * DATABASE_URL at a managed or properly run PostgreSQL there (docs/cluster.md).
 *
 * PostgreSQL refuses to run as root; as root (CI's containers) the server runs as the system
 * user `postgres` that Debian's package creates.
 */

export type LocalPostgres = {
  /** postgres://pm@127.0.0.1:<port>/<database> of the maintenance database `postgres`. */
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
};

/** The directory of initdb, postgres and pg_ctl: PG_BIN, or the newest Debian version installed. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  throw new Error('PostgreSQL is not installed: apt-get install postgresql (or set PG_BIN to the directory of initdb)');
}

/** True when this machine can start a PostgreSQL server of its own. */
export function hasLocalPostgres(): boolean {
  try {
    postgresBinDir();
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;
function systemUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}
/** argv to run a PostgreSQL binary, as `postgres` when this process is root. */
function command(bin: string, args: string[]): [string, string[]] {
  const file = path.join(postgresBinDir(), bin);
  // setpriv execs in place (no process in between), so signals reach PostgreSQL itself.
  return asRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', file, ...args]] : [file, args];
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited (${child.exitCode}): ${output()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start in 30 s: ${output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Starts a server on `dataDir` (initdb first when it holds no cluster yet; a new temporary
 * directory when none is given, removed by stop()). `durable: false` (tests) turns fsync off.
 */
export async function startLocalPostgres(opts: { dataDir?: string; port?: number; durable?: boolean } = {}): Promise<LocalPostgres> {
  const temporary = !opts.dataDir;
  const base = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'pm-postgres-'));
  mkdirSync(base, { recursive: true });
  const dataDir = path.join(base, 'data');
  const socketDir = path.join(base, 'socket');
  mkdirSync(socketDir, { recursive: true });
  if (asRoot) {
    const { uid, gid } = systemUser();
    chownSync(base, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const [file, args] = command('initdb', ['-D', dataDir, '-U', 'pm', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-instructions']);
    execFileSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  }
  const port = opts.port ?? (await freePort());
  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'shared_buffers=128MB'];
  if (opts.durable === false) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const [file, args] = command('postgres', ['-D', dataDir, '-p', String(port), '-k', socketDir, ...settings]);
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `postgres://pm@127.0.0.1:${port}/postgres`;
  try {
    await waitReady(url, child, () => log);
  } catch (err) {
    child.kill('SIGKILL');
    if (temporary) rmSync(base, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    dataDir: base,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        // SIGINT: PostgreSQL's fast shutdown (disconnects clients, no waiting for them).
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (temporary) rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A database of its own on a server (one per test file, as SQLite has one directory per file). */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
