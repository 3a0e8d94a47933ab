import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { CLIENT_ALIAS } from './scripts/client-alias';

/**
 * Files that test SQLite itself, left out of the PostgreSQL run (scripts/test-postgres.ts sets
 * PM_TEST_POSTGRES_URL): its connection and PRAGMAs, the checkpointer, the transaction queue,
 * group commit's and raw statements' SQLite mechanics.
 */
const SQLITE_ONLY = [
  'server/src/db/client.test.ts',
  'server/src/db/checkpointer.test.ts',
  'server/src/db/transaction.test.ts',
  'server/src/lib/group-commit.test.ts',
  'server/src/lib/raw-statement.test.ts',
  'server/src/db/ledger-migration.test.ts',
];
/** Client tests that must not share a module graph with other files (see the 'client-isolated' project). */
const CLIENT_ISOLATED = ['client/src/lib/i18n-lang.test.ts', 'client/src/boot/start-after-paint.test.ts'];
const onPostgres = Boolean(process.env.PM_TEST_POSTGRES_URL);

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's two cores that is one worker,
    // and the suite took 370 s instead of 260 s. The files are independent (each its own
    // temporary database), so every core runs one.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        resolve: { alias: [CLIENT_ALIAS] },
        test: {
          name: 'server',
          include: onPostgres ? ['server/src/**/*.test.ts'] : ['server/src/**/*.test.ts', 'sync-protocol/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: onPostgres ? [...SQLITE_ONLY, '**/*.pg.test.ts'] : ['**/*.pg.test.ts'],
          environment: 'node',
          pool: 'forks',
          // One module graph per worker, not per file (58 s → 20 s): every file starts its own
          // app on its own temporary database, with services of its own (compose.ts composeDeps);
          // what module state is left is keyed by the database handle.
          isolate: false,
          // Projects do not inherit the root's timeouts.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // docs/cluster.md: tests that start a PostgreSQL server of their own (two instances on one
        // database, the revision order), in every run. One process per file: opening PostgreSQL
        // points the process's table exports at PostgreSQL's tables (db/schema.ts).
        resolve: { alias: [CLIENT_ALIAS] },
        test: {
          name: 'postgres',
          include: ['server/src/**/*.pg.test.ts'],
          environment: 'node',
          pool: 'forks',
          isolate: true,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Client replicas (RxDB on fake-indexeddb) against the real server over HTTP.
        resolve: { alias: [CLIENT_ALIAS] },
        test: {
          name: 'replication',
          include: ['tests/replication/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          // Projects do not inherit the root's timeouts.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // docs/security.md: the security suite, one file per area, against the real app on a real database.
        resolve: { alias: [CLIENT_ALIAS] },
        test: {
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: [CLIENT_ALIAS] },
        plugins: [react()],
        test: {
          name: 'client',
          include: ['client/src/**/*.test.{ts,tsx}'],
          exclude: CLIENT_ISOLATED,
          environment: 'jsdom',
          setupFiles: ['client/src/testing/setup.ts'],
          // One module graph per worker (Mantine, React and the app imported once, not per file:
          // 152 s → 76 s); the setup file's cleanup runs after every test, and the suite also
          // passes with its files shuffled. The replication project stays isolated: RxDB allows
          // only 16 open collections per process.
          isolate: false,
          testTimeout: 30_000,
          css: false,
        },
      },
      {
        resolve: { alias: [CLIENT_ALIAS] },
        plugins: [react()],
        test: {
          // Tests of module start-up (they import a module afresh): in a worker of their own, where
          // no other file's copy of i18next and its listeners is still loaded.
          name: 'client-isolated',
          include: CLIENT_ISOLATED,
          environment: 'jsdom',
          setupFiles: ['client/src/testing/setup.ts'],
          isolate: true,
          testTimeout: 30_000,
          css: false,
        },
      },
    ],
  },
});
