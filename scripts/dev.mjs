#!/usr/bin/env node
// `npm run dev`: the API server with reload on change, and Vite's dev server (which proxies /api).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

// The browser reaches the site through Vite's server (vite.config.ts, port 5173): the links the
// server builds (the payment sandbox's way back) start there (PUBLIC_URL, server/src/env.ts).
const serverEnv = { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1:5173' };
const children = [
  spawn(bin('tsx'), ['watch', path.join(root, 'server', 'src', 'index.ts')], { cwd: root, stdio: 'inherit', env: serverEnv }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
];
const stop = (sig) => children.forEach((c) => c.kill(sig));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig));
for (const c of children) c.on('exit', (code) => {
  stop('SIGTERM');
  process.exit(code ?? 0);
});
