#!/usr/bin/env node
// `npm start`: builds the client when dist/ is missing or older than its sources, then runs the
// server (API under /api plus the built client) in the foreground, passing signals through.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, f) => Math.max(m, newestMtime(path.join(p, f))), s.mtimeMs);
}

const built = path.join(root, 'dist', 'index.html');
const sources = Math.max(
  newestMtime(path.join(root, 'client')),
  newestMtime(path.join(root, 'sync-protocol')),
  newestMtime(path.join(root, 'vite.config.ts')),
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Building the client …');
  const r = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The server's V8 flags (scripts/server-flags.mjs), through NODE_OPTIONS to the node tsx starts.
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, ...SERVER_NODE_FLAGS].filter(Boolean).join(' ') };
const server = spawn(bin('tsx'), [path.join(root, 'server', 'src', 'index.ts')], { cwd: process.cwd(), stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
