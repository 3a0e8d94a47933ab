/**
 * `npm run typecheck`: the four TypeScript projects, checked at the same time (CI's machine has
 * more than one core, and `npm test` runs within CI's 20 minutes). Fails when any fails; each
 * project's output is printed whole, after it ends. TYPECHECK_PROJECTS=a,b checks only those.
 * The tests, the end-to-end specs and the scripts are one program (tsconfig.tools.json): they
 * import the same server and client code, which two programs checked twice (docs/development.md).
 */
import { spawn } from 'node:child_process';

const projects = process.env.TYPECHECK_PROJECTS?.split(',') ?? ['sync-protocol', 'server', 'client', 'tsconfig.tools.json'];

const runs = projects.map(
  (p) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', p], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => {
        if (out) process.stdout.write(`── tsc -p ${p}\n${out}`);
        resolve(code === 0);
      });
    }),
);
const ok = (await Promise.all(runs)).every(Boolean);
if (!ok) console.error('typecheck failed');
process.exit(ok ? 0 : 1);
