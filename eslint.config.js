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

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'server/src/db/migrations/', 'test-results/', 'playwright-report/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['./server/tsconfig.json', './client/tsconfig.json', './sync-protocol/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      ...boundaries,
      'import-x/no-cycle': 'off',
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
    files: ['**/*.test.ts', 'server/src/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['scripts/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
);
