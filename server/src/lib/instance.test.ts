import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../app';
import { type Harness, startHarness } from '../test/harness';
import { serveClientFiles } from './client-files';
import { INSTANCE_HEADER, instanceName } from './instance';
import type { LoadMonitor } from './overload';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

test('the instance is named by INSTANCE_ID, else by the host name and the process id', () => {
  expect(instanceName({ INSTANCE_ID: 'web-7' })).toBe('web-7');
  expect(instanceName({})).toBe(`${hostname()}-${process.pid}`);
});

test('every response names the instance: API answers, errors, refusals under overload and the site\'s files', async () => {
  const name = `${hostname()}-${process.pid}`;
  const clientDir = path.join(h.dataDir, 'client');
  mkdirSync(clientDir, { recursive: true });
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>');
  let refuse = false;
  const load: LoadMonitor = { admit: () => (refuse ? 'in-flight' : null), finished: () => undefined, connected: () => undefined, inFlight: () => 0 };
  const app = createApp(h.deps, { load });
  serveClientFiles(app, clientDir);
  const cases: [string, RequestInit, number][] = [
    ['/api/health', {}, 200],
    ['/api/no-such-route', {}, 404],
    ['/api/UserLogin/login', { method: 'POST' }, 400],
    ['/api/UserLogin/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1024 * 1024 + 1) }, 413],
    ['/api/tag', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{' }, 401],
    ['/', {}, 200],
    ['/exam-list', {}, 200],
  ];
  for (const [url, init, status] of cases) {
    const r = await app.request(url, init);
    expect([url, r.status]).toEqual([url, status]);
    expect(r.headers.get(INSTANCE_HEADER), url).toBe(name);
  }
  refuse = true;
  const shed = await app.request('/api/health');
  expect(shed.status).toBe(503);
  expect(shed.headers.get(INSTANCE_HEADER)).toBe(name);
});
