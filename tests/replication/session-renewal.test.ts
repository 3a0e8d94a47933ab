import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { person } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { sessionToken, startSession } from '../../server/src/lib/sessions';
import { DEMO } from '../../server/src/test/harness';
import { eventually, newAttempt, openDevice, startServer, type TestServer } from './harness';

/**
 * docs/security.md "Sessions and logout" on a real replica: a device back after 20 days offline syncs with the token it left
 * with, and the replication (pulls, pushes and the stream) hands the renewed token to the app,
 * which stores it, so a device that syncs now and then never reaches its token's expiry. Once the
 * session is logged out elsewhere, the device stops and says it is signed out.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const DAY = 24 * 3600 * 1000;

test('a device offline for 20 days syncs, stores the renewed token, and stops once its session is logged out', async () => {
  const db = server.harness.deps.db;
  const now = Date.now();
  const tv = (await first(db.select({ tv: person.tokenVersion }).from(person).where(eq(person.id, DEMO.learner.id))))!.tv;
  const s = await startSession(db, DEMO.learner.id, now - 20 * DAY);
  let token = await sessionToken(server.harness.deps.config.jwtSecret, { id: DEMO.learner.id, tokenVersion: tv }, s, now - 20 * DAY);
  const left = token;

  const d = await openDevice(DEMO.learner.id, server, {
    token: () => token,
    // What the app does (lib/session renewToken): replace the token only if it is the one sent.
    onTokenRenewed: (sent, fresh) => {
      if (sent === token) token = fresh;
    },
  });
  await d.db.test_summary.insert(newAttempt('attempt-after-20-days'));
  await d.replication.awaitInSync();
  await eventually(async () => {
    const r = await server.harness.request('GET', '/sync/v1/test_summary/pull?rev=0&limit=100', { token: left, headers: { 'X-Sync-Protocol': '1.0.0' } });
    return r.body.documents.some((x: { id: string }) => x.id === 'attempt-after-20-days');
  }, 10_000, 'the attempt taken offline reached the server');
  expect(token).not.toBe(left);
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string; iat: number };
  expect(claims.sid).toBe(s.id);
  expect(Math.abs(claims.iat * 1000 - Date.now())).toBeLessThan(60_000);

  // Logged out on another device: the session ends, and with it this device's sync.
  expect((await server.harness.request('POST', '/UserLogin/logout', { token: left })).status).toBe(200);
  d.replication.reSync();
  await eventually(() => d.status().phase === 'signed-out', 10_000, 'the device says it is signed out');
  await d.close();
});
