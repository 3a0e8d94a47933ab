// The client build of `npm start` and `npm run start:cluster`: a production build into dist/
// when it is missing, older than its sources, or made with other VITE_* values.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, f) => Math.max(m, newestMtime(path.join(p, f))), s.mtimeMs);
}

/** Builds the client under `root` when stale; exits the process when the build fails. */
export function buildClientIfStale(root) {
  const built = path.join(root, 'dist', 'index.html');
  const sources = Math.max(
    newestMtime(path.join(root, 'client')),
    newestMtime(path.join(root, 'sync-protocol')),
    newestMtime(path.join(root, 'vite.config.ts')),
  );
  // The client's configuration (docs/configuration.md "Client configuration") is built into it: a build made with
  // other VITE_* values is stale too. A fingerprint of the values of the last build made here is
  // kept beside it (a hash: dist/ is served); a build without one (`npm run build`) counts as made
  // without any.
  const viteEnvFile = path.join(root, 'dist', '.vite-env');
  const viteEnvPairs = Object.entries(process.env).filter(([k, v]) => k.startsWith('VITE_') && v);
  const viteEnv = createHash('sha256')
    .update(JSON.stringify(viteEnvPairs.sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex');
  const viteEnvChanged = existsSync(viteEnvFile) ? readFileSync(viteEnvFile, 'utf8') !== viteEnv : viteEnvPairs.length > 0;
  if (existsSync(built) && statSync(built).mtimeMs >= sources && !viteEnvChanged) return;
  console.log('Building the client …');
  // Always a production build of the client: NODE_ENV picks the server's mode, and Vite would
  // build React's development bundle under NODE_ENV=development.
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(viteEnvFile, viteEnv);
}
