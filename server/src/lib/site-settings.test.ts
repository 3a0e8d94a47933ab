import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_TRUST_NAME, TRUST_NAME_META } from '@pm/protocol/site';
import { createApp } from '../app';
import { type Harness, startHarness } from '../test/harness';
import { serveClientFiles } from './client-files';

/*
 * docs/configuration.md, TRUST_NAME: the installation's trust name reaches every page (the meta
 * the app reads, the text the build drew) and the receipts; the demo's name is the default.
 */

const HOME = `<!doctype html><html><head><title>Pariksha Mitra</title></head><body><div id="root"><p>It is run by ${DEFAULT_TRUST_NAME.en}.</p><p lang="hi">${DEFAULT_TRUST_NAME.hi} इसे चलाता है।</p><footer>© 2026 ${DEFAULT_TRUST_NAME.en}. All rights reserved.</footer></div></body></html>`;

let h: Harness;
let clientDir: string;
beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'pm-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), HOME);
  writeFileSync(path.join(clientDir, 'home.html'), HOME);
  writeFileSync(path.join(clientDir, 'home.html.br'), brotliCompressSync(HOME));
  h = await startHarness();
});
afterAll(() => {
  h.destroy();
  rmSync(clientDir, { recursive: true, force: true });
});

const configured = () => ({ ...h.deps.config, TRUST_NAME: 'Vidya Daan Trust <Jaipur>', TRUST_NAME_HI: 'विद्या दान ट्रस्ट', TRUST_ADDRESS: '1 Station Road, Kota' });

test('the demo name is the default, and a default installation sends its pages untouched', async () => {
  expect(h.deps.config.TRUST_NAME).toBe(DEFAULT_TRUST_NAME.en);
  expect(h.deps.config.TRUST_NAME_HI).toBe(DEFAULT_TRUST_NAME.hi);
  const app = createApp(h.deps);
  serveClientFiles(app, clientDir);
  const r = await app.request('/about-us');
  expect(await r.text()).toBe(HOME);
});

test('a configured name is in every page: a meta the app reads, and the text the build drew, compressed or not', async () => {
  const app = createApp({ ...h.deps, config: configured() });
  serveClientFiles(app, clientDir);
  for (const [url, encoding] of [
    ['/', 'br'],
    ['/', 'identity'],
    ['/about-us', 'br'],
  ] as const) {
    const r = await app.request(url, { headers: { 'accept-encoding': encoding } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBeNull();
    const html = await r.text();
    expect(html).toContain(`<meta name="${TRUST_NAME_META}" content="Vidya Daan Trust &#60;Jaipur&#62;" data-hi="विद्या दान ट्रस्ट"></head>`);
    expect(html).toContain('<p>It is run by Vidya Daan Trust &#60;Jaipur&#62;.</p>');
    expect(html).toContain('<p lang="hi">विद्या दान ट्रस्ट इसे चलाता है।</p>');
    expect(html).toContain('© 2026 Vidya Daan Trust &#60;Jaipur&#62;. All rights reserved.');
    expect(html).not.toContain(DEFAULT_TRUST_NAME.en);
    expect(html).not.toContain(DEFAULT_TRUST_NAME.hi);
  }
  // The API is left as it is.
  expect(await (await app.request('/api/health')).json()).toEqual({ success: true });
});

test('a bad TRUST_NAME stops the start with a message naming it', async () => {
  const { parseEnv } = await import('../env');
  expect(() => parseEnv({ DATA_DIR: '/tmp/x', TRUST_NAME: ' ' })).toThrow(/TRUST_NAME/);
});
