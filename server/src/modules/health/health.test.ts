import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

test('GET /api/health answers success with the server time header', async () => {
  const r = await h.request('GET', '/health');
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ success: true });
  expect(Number(r.headers.get('x-server-time'))).toBeGreaterThan(1_700_000_000_000);
});

test('unknown API paths answer 404 in the error shape', async () => {
  const r = await h.request('GET', '/no-such-thing');
  expect(r.status).toBe(404);
  expect(r.body).toMatchObject({ success: false, msg: 'Not found' });
});
