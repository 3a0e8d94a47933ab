import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, test } from 'vitest';
import { MANTINE_USE_ID, mantineUseId, USE_ID_SOURCE } from './vite-plugin-mantine-use-id';

const require = createRequire(import.meta.url);
// The package's folder, from its main entry (its exports map does not list package.json).
const hooksEntry = require.resolve('@mantine/hooks');
const hooksDir = hooksEntry.slice(0, hooksEntry.lastIndexOf(`${path.sep}@mantine${path.sep}hooks${path.sep}`) + `${path.sep}@mantine${path.sep}hooks`.length);
const original = path.join(hooksDir, 'esm', 'use-id', 'use-id.mjs');

test('the module it replaces is the one @mantine/hooks loads, and still has the random id this plugin removes', () => {
  // A Mantine update that changes or moves the hook fails here, not silently in the app.
  const source = readFileSync(original, 'utf8');
  expect(source).toContain('setUuid(randomId())');
  expect(source).toMatch(/export \{ useId\$1 as useId \}/);
  expect(readFileSync(path.join(hooksDir, 'esm', 'index.mjs'), 'utf8')).toContain('from "./use-id/use-id.mjs"');
  expect(MANTINE_USE_ID.test(original)).toBe(true);
});

test('Vite loads the replacement for that file only: React\'s id with the mantine- prefix, or the fixed id, and no effect', async () => {
  const plugin = mantineUseId();
  const load = plugin.load as (id: string) => { code: string } | null;
  expect(load(original)?.code).toBe(USE_ID_SOURCE);
  expect(load(`${original}?v=1`)?.code).toBe(USE_ID_SOURCE);
  expect(load(path.join(hooksDir, 'esm', 'use-idle', 'use-idle.mjs'))).toBeNull();
  expect(USE_ID_SOURCE).not.toMatch(/useState|Effect|random/i);
});

test('the replacement gives each element React\'s own id (unique, the same in every render) or the fixed id', async () => {
  // Written beside the project's packages, so that its `import from "react"` resolves.
  const dir = mkdtempSync(path.join(path.dirname(require.resolve('react/package.json')), '..', '.cache-use-id-'));
  try {
    const file = path.join(dir, 'use-id.mjs');
    writeFileSync(file, USE_ID_SOURCE);
    const { useId } = (await import(pathToFileURL(file).href)) as { useId: (staticId?: string) => string };
    const ids: string[] = [];
    function Field({ fixed }: { fixed?: string }) {
      ids.push(useId(fixed));
      return null;
    }
    renderToString(createElement('div', null, createElement(Field), createElement(Field), createElement(Field, { fixed: 'given' })));
    expect(ids[0]).toMatch(/^mantine-\S+$/);
    expect(ids[1]).toMatch(/^mantine-\S+$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBe('given');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
