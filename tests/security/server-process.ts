import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testDatabaseEnv } from '../../server/src/test/harness';

/**
 * The real server as a process (server/src/index.ts, as `npm start` runs it after the build), for
 * what only a process shows: how it starts and refuses to start, the modes of the files it makes,
 * and what its log holds after a kill -9. stdout and stderr go to a file, read afterwards.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  base: string;
  logFile: string;
  /** Exit code and signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The log so far, one parsed JSON object per line (lines that are not JSON are kept as { text }). */
  log: () => Record<string, unknown>[];
  /** Resolves once GET /api/health answers 200; rejects if the process exits first. */
  ready: () => Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<void>;
};

export async function startServer(opts: { dataDir: string; logFile: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const port = await freePort();
  const out = openSync(opts.logFile, 'w');
  // Vitest sets NODE_ENV=test; each test says which mode it starts.
  const { NODE_ENV: _mode, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/index.ts')], {
    cwd: ROOT,
    // The PostgreSQL run of the suites (PM_TEST_POSTGRES_URL) gives the directory a database there.
    env: { ...inherited, DATA_DIR: opts.dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...(await testDatabaseEnv(opts.dataDir)), ...opts.env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const log = () =>
    readFileSync(opts.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return { text: l };
        }
      });
  const ready = async () => {
    const end = Date.now() + 90_000;
    while (Date.now() < end) {
      if (done) throw new Error(`the server exited before it was ready:\n${readFileSync(opts.logFile, 'utf8')}`);
      try {
        if ((await request(base, 'GET', '/api/health')).status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the server did not become ready in 90 s');
  };
  const stop = async () => {
    if (!done) child.kill('SIGTERM');
    await exited;
  };
  return { child, port, base, logFile: opts.logFile, exited, log, ready, stop };
}

/**
 * One request on a connection of its own (no keep-alive: a kept connection that the server
 * closes while idle, during a slow step of a test, would fail the next request).
 */
export function request(base: string, method: string, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers, agent: false });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = { text };
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** POST /api/UserLogin/login with Basic credentials. */
export function login(base: string, username: string, password: string) {
  return request(base, 'POST', '/api/UserLogin/login', { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` });
}
