import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';
import { chromium, type Browser } from '@playwright/test';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The real server (as `npm start` runs it) on `dataDir` and a free 127.0.0.1 port. */
export async function startAppServer(dataDir: string): Promise<{ base: string; proc: ChildProcess; stop: () => void }> {
  if (!existsSync(path.join(root, 'dist/index.html'))) spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const port = await freePort();
  // With the server's V8 flags as npm start gives them.
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/src/index.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 900) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, proc, stop: () => proc.kill('SIGTERM') };
}

/** Debian's Chromium when present (as the e2e suite), Playwright's own otherwise. */
export function launchChromium(): Promise<Browser> {
  const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  return chromium.launch({ ...(systemChromium && { executablePath: systemChromium }), args: ['--no-sandbox', '--disable-gpu'] });
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
export const median = (xs: number[]) => percentile(xs, 50);

/**
 * CPU time (µs, all threads) a forked server process has used so far: it answers the message
 * 'cpu' with `{ cpuUs }` (process.cpuUsage). Steadier than a rate on a shared machine.
 */
export function childCpu(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve) => {
    const on = (m: { cpuUs?: number }) => {
      if (m.cpuUs === undefined) return;
      child.off('message', on);
      resolve(m.cpuUs);
    };
    child.on('message', on);
    child.send('cpu');
  });
}
