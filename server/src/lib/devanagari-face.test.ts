import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { devanagariFontFace } from './devanagari-face';

const dir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the server's own pages name the build's Devanagari face, limited to Devanagari; nothing without a build", () => {
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'noto-sans-devanagari-devanagari-400-normal-Ab12Cd.woff2'), '');
  writeFileSync(path.join(dir, 'assets', 'noto-sans-devanagari-devanagari-400-normal-Ab12Cd.woff'), '');
  const rule = devanagariFontFace(dir);
  expect(rule).toContain('font-family:"Noto Sans Devanagari"');
  expect(rule).toContain('src:url(/assets/noto-sans-devanagari-devanagari-400-normal-Ab12Cd.woff2) format("woff2")');
  expect(rule).toMatch(/unicode-range:U\+0900-097F/);
  expect(devanagariFontFace(path.join(dir, 'none'))).toBe('');
});
