/**
 * `npm run test:postgres` (part of `npm test`; docs/cluster.md): the API, sync, scoring and security
 * suites again, on PostgreSQL. Starts a PostgreSQL server of its own in a temporary directory
 * (Debian's binaries; .ci/run installs them), gives each test file a database of its own on it
 * (server/src/test/harness.ts), and removes it all afterwards. Arguments go to Vitest, e.g.
 * `npm run test:postgres -- server/src/modules/sync`.
 *
 * The files that test SQLite itself (its connection, checkpoints, group commit's statements)
 * stay out of this run: vitest.config.ts lists them (SQLITE_ONLY).
 */
import { spawn } from 'node:child_process';
import { startLocalPostgres } from '../server/src/db/postgres-server';

const server = await startLocalPostgres({ durable: false });
console.log(`PostgreSQL for the tests at ${server.url}`);
let code = 1;
try {
  code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--project', 'server', '--project', 'security', '--project', 'replication', ...process.argv.slice(2)],
      { stdio: 'inherit', env: { ...process.env, PM_TEST_POSTGRES_URL: server.url } },
    );
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
} finally {
  await server.stop();
}
process.exit(code);
