import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, expect, test } from 'vitest';
import { PRECOMPRESS_MIN_BYTES, precompressDir } from './vite-plugin-precompress';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-precompress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('twins for compressible files of 1 kB or more, none for small files, images or dot-folders', async () => {
  const chunk = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, text: 'प्रश्न / question' })))};`;
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, 'assets', 'index-Ab1.js'), chunk);
  writeFileSync(path.join(dir, 'assets', 'index-Ab1.css'), `body{margin:0}\n${'.a{color:red}\n'.repeat(200)}`);
  writeFileSync(path.join(dir, 'sw.js'), chunk);
  writeFileSync(path.join(dir, 'assets', 'small-Cd2.js'), 'export const x = 1;');
  writeFileSync(path.join(dir, 'icon.png'), Buffer.alloc(4096, 7));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify({ padding: 'x'.repeat(4096) }));

  const totals = await precompressDir(dir);
  expect(totals.files).toBe(3);
  for (const file of ['assets/index-Ab1.js', 'assets/index-Ab1.css', 'sw.js']) {
    const original = readFileSync(path.join(dir, file));
    expect(original.length).toBeGreaterThanOrEqual(PRECOMPRESS_MIN_BYTES);
    const br = readFileSync(path.join(dir, `${file}.br`));
    const gz = readFileSync(path.join(dir, `${file}.gz`));
    expect(br.length).toBeLessThan(original.length);
    expect(brotliDecompressSync(br).equals(original)).toBe(true);
    expect(gunzipSync(gz).equals(original)).toBe(true);
  }
  for (const file of ['assets/small-Cd2.js', 'icon.png', '.vite/manifest.json']) {
    expect(existsSync(path.join(dir, `${file}.br`)), file).toBe(false);
    expect(existsSync(path.join(dir, `${file}.gz`)), file).toBe(false);
  }
});
