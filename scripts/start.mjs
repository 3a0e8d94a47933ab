#!/usr/bin/env node
// `npm start`: builds the client when dist/ is missing or older than its sources, then runs the
// server (API under /api plus the built client) in the foreground, passing signals through.
// Without NODE_ENV it is the demo (the accounts of fixtures/, README "Demo accounts");
// NODE_ENV=production is a real installation: no demo accounts, and the server refuses to start
// while one of their published passwords is in the database (server/src/env.ts, db/seed.ts).
import { constants } from 'node:os';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClientIfStale } from './build-client.mjs';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

buildClientIfStale(root);

// The server's V8 flags (scripts/server-flags.mjs), through NODE_OPTIONS to the node tsx starts.
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, ...SERVER_NODE_FLAGS].filter(Boolean).join(' ') };
if (process.env.NODE_ENV === 'production') {
  console.log('Production start: no demo accounts. Make the first admin with npm run create-admin (docs/configuration.md).');
} else {
  console.log('Demo start: the demo accounts of the README sign in. Set NODE_ENV=production for a real installation.');
}
const server = spawn(bin('tsx'), [path.join(root, 'server', 'src', 'index.ts')], { cwd: process.cwd(), stdio: 'inherit', env });
let forwarded = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    forwarded = true;
    server.kill(sig);
  });
}
// The server's exit code passes through (1 for a refused production start). Killed by a signal we
// did not pass on (the OOM killer, kill -9), it is a failure for a supervisor (128 + signal, as a
// shell reports it), not a clean stop.
server.on('exit', (code, signal) => {
  if (code !== null) process.exit(code);
  process.exit(forwarded ? 0 : 128 + (constants.signals[signal] ?? 0));
});
