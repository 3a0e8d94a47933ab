// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { existsSync, readdirSync } from 'node:fs';

const featuresDir = new URL('./client/src/features', import.meta.url);
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];

/**
 * Imports flow one way (CONVENTIONS rule 1): sync-protocol ← server, sync-protocol ← client;
 * inside the client shared code ← features ← app, and features do not import each other.
 */
const boundaries = {
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: [
        { target: './sync-protocol', from: ['./server', './client'], message: 'sync-protocol imports nothing from client/ or server/.' },
        { target: './server', from: './client', message: 'The server never imports client code.' },
        { target: './client', from: './server', message: 'The client never imports server code (Drizzle stays out of the bundle).' },
        {
          target: ['./client/src/components', './client/src/hooks', './client/src/lib', './client/src/db', './client/src/config', './client/src/locales'],
          from: ['./client/src/features', './client/src/app'],
          message: 'Shared client code must not import features or the app.',
        },
        { target: './client/src/features', from: './client/src/app', message: 'Features must not import the app layer.' },
        // One zone per feature, as bulletproof-react does: a feature may import only itself.
        ...features.map((f) => ({
          target: `./client/src/features/${f}`,
          from: './client/src/features',
          except: [`./${f}`],
          message: 'Features do not import each other; lift shared code into components/, hooks/ or lib/.',
        })),
      ],
    },
  ],
};

/**
 * Which server module may import which (docs/architecture.md "Which server module imports
 * which"): the graph is one-way; a module not listed for another may not import it. Tests may
 * reach across (a test of scoring pushes through sync, say).
 */
const serverModuleImports = {
  'answer-file': ['sync'],
  'live-tests': ['entitlements', 'sms'],
  bundles: ['answer-file', 'entitlements', 'media', 'questions', 'sync'],
  donations: ['campaigns', 'payments'],
  auth: ['persons', 'sms'],
  campaigns: ['media'],
  grievances: ['campaigns', 'payouts', 'push'],
  payments: ['entitlements'],
  payouts: ['campaigns', 'payments', 'push'],
  permissions: ['persons'],
  push: ['sync'],
  questions: ['entitlements'],
  reports: ['payments'],
  results: ['entitlements', 'live-tests', 'questions', 'sync'],
  roles: ['persons'],
  'sms-answers': ['sync', 'sms'],
  sms: ['payments'],
  sync: ['entitlements', 'live-tests', 'questions'],
  translate: ['questions'],
};
const serverModulesDir = new URL('./server/src/modules', import.meta.url);
const serverModules = existsSync(serverModulesDir)
  ? readdirSync(serverModulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];
const serverModuleZones = serverModules.map((m) => ({
  target: `./server/src/modules/${m}`,
  from: './server/src/modules',
  except: [`./${m}`, ...(serverModuleImports[m] ?? []).map((d) => `./${d}`)],
  message: `${m} may import only ${(serverModuleImports[m] ?? []).join(', ') || 'no other module'} (docs/architecture.md "Which server module imports which"; a new direction goes into eslint.config.js serverModuleImports and that page).`,
}));

/** Patterns of no-restricted-imports (docs/development.md "Layout"). */
const PROTOCOL_BY_NAME = { group: ['**/sync-protocol/src/*', '**/sync-protocol/src/**'], message: "Import the shared wire by name: '@pm/protocol/<file>'." };
const CLIENT_CLIMB = { group: ['../../../*', '../../../**'], message: "More than two levels up: import it as '@/<path under client/src>'." };
const SERVER_CLIMB = { group: ['../../../*', '../../../**'], message: "More than two levels up: import it as '#server/<path under server/src>' (package.json imports)." };
const TEST_ONLY = { group: ['**/*.fixture', '**/*.fixture.ts', '**/testing/*', '**/test/harness', '**/test/builders'], message: 'Fixtures and test helpers are for tests only.' };
const PRODUCTION_IGNORES = ['**/*.test.{ts,tsx}', '**/*.fixture.ts', '**/*.fixture-entry.ts', 'client/src/testing/**', 'server/src/test/**'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'server/src/db/migrations/', 'test-results/', 'playwright-report/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser for what import-x reads of the imported files (no-cycle follows them).
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['./server/tsconfig.json', './client/tsconfig.json', './sync-protocol/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      ...boundaries,
      'import-x/no-cycle': 'off',
      // The shared wire is a workspace package, imported by name (docs/development.md).
      'no-restricted-imports': ['error', { patterns: [PROTOCOL_BY_NAME] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries['import-x/no-restricted-paths'][1].zones, ...serverModuleZones] }],
    },
  },
  {
    // The client's code climbs at most two levels; deeper, it names `@/…` (client/src; docs/development.md "Layout").
    files: ['client/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PROTOCOL_BY_NAME, CLIENT_CLIMB] }] },
  },
  {
    // The server's code climbs at most two levels; deeper, it names `#server/…` (server/src).
    files: ['server/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PROTOCOL_BY_NAME, SERVER_CLIMB] }] },
  },
  {
    // Fixtures and test helpers stay out of what ships (docs/development.md): test files,
    // `*.fixture.ts`, client/src/testing/ and server/src/test/ may use them, production code not.
    files: ['server/src/**/*.ts', 'sync-protocol/src/**/*.ts'],
    ignores: PRODUCTION_IGNORES,
    rules: { 'no-restricted-imports': ['error', { patterns: [PROTOCOL_BY_NAME, SERVER_CLIMB, TEST_ONLY] }] },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    ignores: PRODUCTION_IGNORES,
    rules: { 'no-restricted-imports': ['error', { patterns: [PROTOCOL_BY_NAME, CLIENT_CLIMB, TEST_ONLY] }] },
  },
  {
    // No import circles (docs/development.md): on the server, in sync-protocol and in the client.
    // A test file is imported by nothing, so no circle runs through it: walking the import graph
    // from each of them was half of the lint's time, for no circle it could find. Packages are not
    // walked either (their own imports are theirs).
    files: ['server/src/**/*.ts', 'sync-protocol/src/**/*.ts', 'client/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['**/*.test.ts', 'server/src/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // docs/cluster.md: the server's queries are written for either engine: `await q` and the helpers of
    // server/src/db/transaction.ts, never better-sqlite3's synchronous `.get()`, `.all()`, `.run()`.
    files: ['server/src/**/*.ts', 'tests/**/*.ts'],
    // The database layer itself, and its tests, which read the SQLite files with better-sqlite3.
    ignores: ['server/src/db/client.ts', 'server/src/db/client.test.ts', 'server/src/db/ledger-migration.test.ts', 'server/src/db/checkpointer.ts', 'server/src/db/checkpointer.test.ts', 'server/src/lib/raw-statement.ts', 'server/src/db/transaction.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[arguments.length=0] > MemberExpression.callee[property.name=/^(get|all|run)$/]",
          message: 'A synchronous SQLite call: write `await q`, `await first(q)` or `affected(await q)` (server/src/db/transaction.ts).',
        },
        {
          selector: "CallExpression[arguments.0.type='TaggedTemplateExpression'] > MemberExpression.callee[property.name=/^(get|all|run|values)$/]",
          message: 'Raw SQL through SQLite only: write `await rows(db, sql…)`, `await row(db, sql…)` or `await exec(db, sql…)` (server/src/db/transaction.ts).',
        },
        {
          selector: "CallExpression > MemberExpression.callee[property.name='transaction']",
          message: 'Write `await transaction(db, async (tx) => …)` (server/src/db/transaction.ts): it runs on either engine.',
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
