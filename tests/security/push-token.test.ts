import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pushSubscription, session } from '../../server/src/db/schema';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "Sessions and logout": a push subscription could be moved to another account by anyone who knew
 * it. A device's Web Push subscription (docs/configuration.md "Push messages (Web Push)": its endpoint, the "token") registered by one
 * person stays theirs, bound to the session that registered it (PATCH
 * /generic/update-firebase-token, modules/push/push.service.ts saveSubscription); logging that
 * session out deletes it, and then the next person on the same phone registers it.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

let seq = 0;
/** A push endpoint as a browser would hand it out (the local push endpoint's form; nothing is sent to it here). */
const deviceToken = () => `http://127.0.0.1:9/push/device-${++seq}-${randomBytes(24).toString('base64url')}`;
/** The device's keys: a P-256 public key and an auth secret, fresh for each registration. */
function keys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}
const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string }).sid;
const register = (auth: string, endpoint: string) => h.request('PATCH', '/generic/update-firebase-token', { token: auth, body: { endpoint, keys: keys() } });
const rowOf = (endpoint: string) => first(h.deps.db.select().from(pushSubscription).where(eq(pushSubscription.endpoint, endpoint)));

describe('a push subscription stays with the person who registered it', () => {
  test('another person registering a known endpoint gets the same answer and does not move it', async () => {
    const learner = await h.tokenOf('learner');
    const editor = await h.tokenOf('editor');
    const t = deviceToken();
    const first = await register(learner, t);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true });

    const taken = await register(editor, t);
    expect(taken.status).toBe(first.status);
    expect(taken.body).toEqual(first.body);
    expect(await rowOf(t)).toMatchObject({ personId: DEMO.learner.id, sessionId: sidOf(learner) });
    // Nor its keys: messages keep going to the learner's device, encrypted to its keys.
    const before = await rowOf(t);
    await register(editor, t);
    expect((await rowOf(t))?.p256dh).toBe(before?.p256dh);
  });

  test('50 parallel attempts by another person to take an endpoint move it 0 times', async () => {
    const learner = await h.tokenOf('learner');
    const admin = await h.tokenOf('admin');
    const t = deviceToken();
    expect((await register(learner, t)).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 50 }, () => register(admin, t)));
    expect(burst.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(50);
    expect(await rowOf(t)).toMatchObject({ personId: DEMO.learner.id, sessionId: sidOf(learner) });
    expect(await h.deps.db.select().from(pushSubscription).where(eq(pushSubscription.endpoint, t))).toHaveLength(1);
  });

  test('the row is bound to the session that registered it; the same person signing in again moves it to the new session', async () => {
    const before = await h.tokenOf('learner');
    const t = deviceToken();
    await register(before, t);
    expect((await rowOf(t))?.sessionId).toBe(sidOf(before));
    const after = await h.tokenOf('learner');
    expect((await register(after, t)).status).toBe(200);
    expect(await rowOf(t)).toMatchObject({ personId: DEMO.learner.id, sessionId: sidOf(after) });
  });
});

describe('logging out frees the subscription for the next person on the phone', () => {
  test('logout deletes the subscription of that session (only that one); then another person registers it', async () => {
    const phone = await h.tokenOf('learner');
    const laptop = await h.tokenOf('learner');
    const onPhone = deviceToken();
    const onLaptop = deviceToken();
    await register(phone, onPhone);
    await register(laptop, onLaptop);

    expect((await h.request('POST', '/UserLogin/logout', { token: phone })).status).toBe(200);
    expect(await rowOf(onPhone)).toBeUndefined();
    expect(await rowOf(onLaptop)).toMatchObject({ personId: DEMO.learner.id });

    const next = await h.tokenOf('editor');
    expect((await register(next, onPhone)).status).toBe(200);
    expect(await rowOf(onPhone)).toMatchObject({ personId: DEMO.editor.id, sessionId: sidOf(next) });
  });

  test('log out of all devices deletes every subscription of the person', async () => {
    const a = await h.tokenOf('learner');
    const b = await h.tokenOf('learner');
    const ta = deviceToken();
    const tb = deviceToken();
    await register(a, ta);
    await register(b, tb);
    expect((await h.request('POST', '/UserLogin/logoutAll', { token: a })).status).toBe(200);
    expect(await rowOf(ta)).toBeUndefined();
    expect(await rowOf(tb)).toBeUndefined();
  });

  test('a subscription whose session has ended without a logout (expired) can be registered by the next person', async () => {
    const learner = await h.tokenOf('learner');
    const t = deviceToken();
    await register(learner, t);
    await h.deps.db.update(session).set({ expiresAt: Date.now() - 1000 }).where(eq(session.id, sidOf(learner)));
    const editor = await h.tokenOf('editor');
    expect((await register(editor, t)).status).toBe(200);
    expect(await rowOf(t)).toMatchObject({ personId: DEMO.editor.id, sessionId: sidOf(editor) });
  });

  test('a password change keeps the subscription of the session it was made in and deletes the others', async () => {
    const here = await h.tokenOf('admin');
    const elsewhere = await h.tokenOf('admin');
    const tHere = deviceToken();
    const tElsewhere = deviceToken();
    await register(here, tHere);
    await register(elsewhere, tElsewhere);
    const r = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
      token: here,
      body: { oldPassword: DEMO.admin.password, newPassword: 'Copper-kettle-19', confirmPassword: 'Copper-kettle-19' },
    });
    expect(r.status).toBe(200);
    expect(await rowOf(tHere)).toMatchObject({ personId: DEMO.admin.id, sessionId: sidOf(here) });
    expect(await rowOf(tElsewhere)).toBeUndefined();
  });
});
