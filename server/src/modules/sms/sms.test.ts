import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { outbox, person } from '../../db/schema';
import { first } from '../../db/transaction';
import { readLocalInbox } from '../../lib/outbox';
import type { InboundSms } from '../../lib/sms-inbound';
import { DEMO, type Harness, startHarness } from '../../test/harness';
import { smsSandboxControl } from './sandbox-sms';
import { runSmsFallback } from './sms-outbox';
import { twilioSignature } from './twilio';

/*
 * API tests of docs/sms.md through the real app: every code by SMS goes through the real adapter
 * (Twilio's, and MSG91's) to the local SMS sandbox, which reports delivery back to our signed
 * callback route; forged reports change nothing; a message not delivered goes again by e-mail,
 * once; inbound messages reach deps.smsInbound once per provider message id.
 */

let nextMobile = 9660000000;
const mobile = () => String(nextMobile++);

async function inbox(h: Harness, to: string) {
  await h.deps.afterAnswer.settled();
  await smsSandboxControl(h.deps.sms.sandbox).idle();
  return readLocalInbox(path.join(h.dataDir, 'local-inbox.jsonl')).filter((m) => m.to === to);
}

async function codeIn(h: Harness, to: string): Promise<string> {
  const body = (await inbox(h, to)).at(-1)?.body ?? '';
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code sent to ${to}`);
  return code;
}

async function signup(h: Harness, m: string, e: string | null = null) {
  const r = await h.request('POST', '/UserLogin', { body: { n: 'Meera Devi', m, ...(e && { e }), password: 'meera-devi-1', confirmPassword: 'meera-devi-1', p: DEMO.learner.id, terms: true } });
  expect(r.status).toBe(201);
  return r.body as { id: string; token: string };
}

function outboxRows(h: Harness, recipient: string) {
  return h.deps.db.select().from(outbox).where(eq(outbox.recipient, recipient));
}

describe.each(['twilio', 'msg91'] as const)('codes by SMS through the %s protocol', (protocol) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { SMS_SANDBOX_PROTOCOL: protocol } });
  });
  afterAll(() => h.destroy());

  test('forgot password without an e-mail: the code comes by SMS, is reported delivered, and sets the password', async () => {
    const m = mobile();
    await signup(h, m);
    const asked = await h.request('POST', '/UserLogin/resetPassword', { body: { username: m } });
    expect(asked.body).toEqual({ success: true, msg: MSG.resetCodeSent });
    const code = await codeIn(h, `+91${m}`);
    const [row] = await outboxRows(h, `+91${m}`);
    expect(row).toMatchObject({ channel: 'sms', provider: protocol, kind: 'reset_code', lang: 'en', deliveryState: 'delivered', status: 'DELIVERED', pendingSecret: null });
    expect(row!.providerMessageId).toBeTruthy();
    // The stored text keeps the code masked.
    expect(row!.body).not.toContain(code);
    const reset = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', { body: { username: m }, headers: { authorization: h.basic(code, 'meera-new-pass-2') } });
    expect(reset.status).toBe(200);
    expect((await h.login(m, 'meera-new-pass-2')).status).toBe(200);
  });

  test('the code goes in the language the app is in (its cookie): Hindi, as Unicode, and the code still works', async () => {
    const m = mobile();
    await signup(h, m);
    const asked = await h.request('POST', '/UserLogin/resetPassword', { body: { username: m }, headers: { cookie: 'lang=hi' } });
    expect(asked.body).toEqual({ success: true, msg: MSG.resetCodeSent });
    const body = (await inbox(h, `+91${m}`)).at(-1)?.body ?? '';
    expect(body).toMatch(/^परीक्षा मित्र पासवर्ड रीसेट कोड \d{6} है।/);
    const [row] = await outboxRows(h, `+91${m}`);
    expect(row).toMatchObject({ kind: 'reset_code', lang: 'hi' });
    const reset = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', { body: { username: m }, headers: { authorization: h.basic(await codeIn(h, `+91${m}`), 'meera-new-pass-4') } });
    expect(reset.status).toBe(200);
  });

  test('OTP sign-in by SMS', async () => {
    const m = mobile();
    await signup(h, m);
    expect((await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: m } })).body).toEqual({ success: true, msg: MSG.otpSent });
    const code = await codeIn(h, `+91${m}`);
    const r = await h.request('POST', '/OTP/verifyOTPAndSignIn', { body: { type: 'mobile' }, headers: { authorization: h.basic(m, code) } });
    expect(r.status).toBe(200);
    expect((await first(h.deps.db.select().from(person).where(eq(person.mobile, `+91${m}`))))!.mobileVerified).toBe(true);
  });

  test('an account made on someone’s behalf: the password by SMS, and the creator is told where it went', async () => {
    const token = await h.tokenOf('admin');
    const m = mobile();
    const r = await h.request('POST', '/UserLogin/createUserOnBehalf', { token, body: { n: 'Placed By Staff', m } });
    expect(r.status).toBe(201);
    expect(r.body.sentTo).toEqual({ sms: `…${m.slice(-2)}`, email: false });
    const sms = (await inbox(h, `+91${m}`)).at(-1)!;
    expect(sms.subject).toBe('Your Pariksha Mitra account');
    const password = /the password (\S+?), then change it/.exec(sms.body)![1]!;
    expect((await h.login(m, password)).status).toBe(200);
  });

  test('a stranger’s number gets the same answer and no SMS', async () => {
    const m = mobile();
    const reset = await h.request('POST', '/UserLogin/resetPassword', { body: { username: m } });
    const otp = await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: m } });
    expect(reset.body).toEqual({ success: true, msg: MSG.resetCodeSent });
    expect(otp.body).toEqual({ success: true, msg: MSG.otpSent });
    expect(await inbox(h, `+91${m}`)).toEqual([]);
    expect(smsSandboxControl(h.deps.sms.sandbox).messagesTo(`+91${m}`)).toEqual([]);
  });
});

describe('delivery reports', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('a forged report (no signature, a wrong one, another token) is refused with 401 and changes nothing', async () => {
    const m = mobile();
    await signup(h, m, `r${m}@example.com`);
    // Switched off: no report of its own comes, so the row stays `sent`.
    const off = `55500${m.slice(5)}`;
    await h.deps.db.update(person).set({ mobile: `+91${off}` }).where(eq(person.mobile, `+91${m}`));
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: off } });
    await inbox(h, `+91${off}`);
    const [row] = await outboxRows(h, `+91${off}`);
    expect(row).toMatchObject({ deliveryState: 'sent' });
    const url = `${h.deps.config.PUBLIC_URL}/api/sms/twilio/status`;
    const params = { AccountSid: smsSandboxControl(h.deps.sms.sandbox).credentials.twilio.accountSid, MessageSid: row!.providerMessageId!, MessageStatus: 'delivered' };
    const body = new URLSearchParams(params).toString();
    const send = (signature?: string) =>
      h.app.request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature && { 'x-twilio-signature': signature }) }, body });
    for (const signature of [undefined, 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=', twilioSignature('not-our-token', url, params), twilioSignature(smsSandboxControl(h.deps.sms.sandbox).credentials.twilio.authToken, `${url}?x=1`, params)]) {
      const r = await send(signature);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ success: false, msg: 'Invalid signature' });
    }
    // MSG91's route is not this installation's provider: refused alike.
    expect((await h.app.request('/api/sms/msg91/report?token=x', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await first(h.deps.db.select().from(outbox).where(eq(outbox.id, row!.id))))).toMatchObject({ deliveryState: 'sent', deliveredAt: null });
    expect(row!.pendingSecret).toBeTruthy();
    // The right signature moves it; the same report 50 times at once leaves it delivered once.
    const right = twilioSignature(smsSandboxControl(h.deps.sms.sandbox).credentials.twilio.authToken, url, params);
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(right)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await first(h.deps.db.select().from(outbox).where(eq(outbox.id, row!.id)))).toMatchObject({ deliveryState: 'delivered', status: 'DELIVERED', pendingSecret: null });
  });

  test('a report of a message we never sent is answered 404 (sent again by the provider) and writes nothing', async () => {
    const url = `${h.deps.config.PUBLIC_URL}/api/sms/twilio/status`;
    const params = { AccountSid: smsSandboxControl(h.deps.sms.sandbox).credentials.twilio.accountSid, MessageSid: `SM${'9'.repeat(32)}`, MessageStatus: 'delivered' };
    const r = await h.app.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(smsSandboxControl(h.deps.sms.sandbox).credentials.twilio.authToken, url, params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(r.status).toBe(404);
  });
});

describe('the e-mail fallback', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  async function personWithOffPhone() {
    const m = mobile();
    const email = `f${m}@example.com`;
    await signup(h, m, email);
    const off = `55500${m.slice(5)}`;
    await h.deps.db.update(person).set({ mobile: `+91${off}` }).where(eq(person.mobile, `+91${m}`));
    return { off, email };
  }

  test('an OTP not delivered within SMS_FALLBACK_AFTER_S goes by e-mail, once, also when 50 runs of the job meet', async () => {
    const { off, email } = await personWithOffPhone();
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: off } });
    expect(await inbox(h, `+91${off}`)).toEqual([]);
    // Not yet due: nothing.
    expect(await runSmsFallback(h.deps, h.deps.sms.outbox!)).toBe(0);
    const later = Date.now() + (h.deps.config.SMS_FALLBACK_AFTER_S + 1) * 1000;
    const sent = await Promise.all(Array.from({ length: 50 }, () => runSmsFallback(h.deps, h.deps.sms.outbox!, later)));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    const mails = await inbox(h, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(`the text message to your mobile ending ${off.slice(-2)} was not delivered`);
    const code = /\b(\d{6})\b/.exec(mails[0]!.body)![1]!;
    const [row] = await outboxRows(h, `+91${off}`);
    expect(row).toMatchObject({ pendingSecret: null });
    expect(row!.fallbackAt).toBeTypeOf('number');
    // The e-mailed code is the SMS's code: it signs in.
    const r = await h.request('POST', '/OTP/verifyOTPAndSignIn', { body: { type: 'mobile' }, headers: { authorization: h.basic(off, code) } });
    expect(r.status).toBe(200);
  });

  test('a message the operator refuses (a failed report) goes by e-mail at once', async () => {
    const m = mobile();
    const email = `g${m}@example.com`;
    await signup(h, m, email);
    const refused = `55501${m.slice(5)}`;
    await h.deps.db.update(person).set({ mobile: `+91${refused}` }).where(eq(person.mobile, `+91${m}`));
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: refused } });
    const mails = await inbox(h, email);
    expect(mails).toHaveLength(1);
    expect((await outboxRows(h, `+91${refused}`))[0]).toMatchObject({ deliveryState: 'failed', status: 'FAILED' });
  });

  test('a delivered message is never sent again, and a person without e-mail keeps no secret', async () => {
    const m = mobile();
    await signup(h, m);
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: m } });
    await inbox(h, `+91${m}`);
    const [row] = await outboxRows(h, `+91${m}`);
    expect(row).toMatchObject({ deliveryState: 'delivered', pendingSecret: null, fallbackAt: null });
    expect(await runSmsFallback(h.deps, h.deps.sms.outbox!, Date.now() + 600_000)).toBe(0);
  });
});

describe('verifying one’s mobile', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { SIGNUP_VERIFY_MOBILE: 'true' } });
  });
  afterAll(() => h.destroy());

  test('signup sends a code at once; the code sets mv, and 50 parallel tries of it verify once', async () => {
    const m = mobile();
    const { token } = await signup(h, m);
    const code = await codeIn(h, `+91${m}`);
    expect((await inbox(h, `+91${m}`)).at(-1)!.subject).toBe('Verify your mobile number');
    const tries = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/Person/me/mobile/verify', { token, body: { code } })));
    expect(tries.filter((r) => r.status === 200)).toHaveLength(1);
    // The others: the code is spent, or the guesses' budget is (429).
    expect(tries.filter((r) => r.status !== 200).every((r) => (r.status === 400 && r.body.msg === MSG.invalidCode) || r.status === 429)).toBe(true);
    expect((await first(h.deps.db.select().from(person).where(eq(person.mobile, `+91${m}`))))!.mobileVerified).toBe(true);
    expect((await h.request('POST', '/Person/me/mobile/code', { token })).body).toMatchObject({ success: false, msg: MSG.mobileAlreadyVerified });
  });

  test('a new code on request: the answer says where it went; a wrong code, or a bad body, is refused naming the field', async () => {
    const m = mobile();
    const { token } = await signup(h, m);
    const asked = await h.request('POST', '/Person/me/mobile/code', { token });
    expect(asked.body).toEqual({ success: true, msg: MSG.mobileCodeSent, sentTo: `…${m.slice(-2)}`, email: false });
    const code = await codeIn(h, `+91${m}`);
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await h.request('POST', '/Person/me/mobile/verify', { token, body: { code: wrong } })).body).toMatchObject({ success: false, msg: MSG.invalidCode });
    expect((await h.request('POST', '/Person/me/mobile/verify', { token, body: { code, extra: 1 } })).status).toBe(400);
    expect((await h.request('POST', '/Person/me/mobile/verify', { token, body: { code: '12' } })).body).toMatchObject({ msg: MSG.codeRequired });
    expect((await h.request('POST', '/Person/me/mobile/verify', { token, body: { code } })).status).toBe(200);
  });

  test('50 parallel code requests: each answer is a success or the rate limit, and no more SMS than successes', async () => {
    const m = mobile();
    const { token } = await signup(h, m);
    await codeIn(h, `+91${m}`);
    const before = (await inbox(h, `+91${m}`)).length;
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/Person/me/mobile/code', { token })));
    const ok = answers.filter((r) => r.status === 200).length;
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(50);
    expect((await inbox(h, `+91${m}`)).length - before).toBe(ok);
  });
});

describe('50 parallel reset requests for a number without e-mail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.destroy());

  test('every answer is the same text or the rate limit, and one SMS per answered request', async () => {
    const m = mobile();
    await signup(h, m);
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/UserLogin/resetPassword', { body: { username: m } })));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok.every((r) => r.body.msg === MSG.resetCodeSent)).toBe(true);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect((await inbox(h, `+91${m}`)).length).toBe(ok.length);
    // The last code sent is the one that works (each voids the one before).
    const code = await codeIn(h, `+91${m}`);
    const reset = await h.request('POST', '/UserLogin/updatePasswordWithResetCode', { body: { username: m }, headers: { authorization: h.basic(code, 'meera-new-pass-3') } });
    expect(reset.status).toBe(200);
  });
});

describe.each(['twilio', 'msg91'] as const)('inbound messages through the %s protocol', (protocol) => {
  let h: Harness;
  const seen: InboundSms[] = [];
  beforeAll(async () => {
    h = await startHarness({ env: { SMS_SANDBOX_PROTOCOL: protocol } });
    // A handler of no kind first, then one that takes messages starting PMT.
    h.deps.smsInbound.push(async () => false, async (m) => {
      if (!m.text.startsWith('PMT')) return false;
      seen.push(m);
      return true;
    });
  });
  afterAll(() => h.destroy());

  test('the sandbox endpoint turns a phone’s message into our signed callback and answers once it was handled', async () => {
    const r = await h.app.request('/sandbox/sms/inbound', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '+919000000003', text: 'PMT hello' }) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { ok: boolean; providerMessageId: string };
    expect(body.ok).toBe(true);
    expect(seen.at(-1)).toMatchObject({ from: '+919000000003', to: '+919999900000', text: 'PMT hello', provider: protocol, providerMessageId: body.providerMessageId });
  });

  test('the endpoint refuses unknown fields and bad numbers', async () => {
    for (const b of [{ from: '+919000000003', text: 'x', extra: 1 }, { from: 'abc', text: 'x' }, { from: '+919000000003', text: '' }]) {
      expect((await h.app.request('/sandbox/sms/inbound', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).status).toBe(400);
    }
  });

  test('the same provider message 50 times at once reaches the handlers once; a forged one never', async () => {
    const sb = h.deps.sms.sandbox!;
    const id = protocol === 'twilio' ? `SM${'c'.repeat(32)}` : 'dup-request-1';
    const before = seen.length;
    let cb: { url: string; headers: Record<string, string>; body: string };
    if (protocol === 'twilio') {
      const url = `${h.deps.config.PUBLIC_URL}/api/sms/twilio/inbound`;
      const params = { AccountSid: sb.credentials.twilio.accountSid, MessageSid: id, From: '+919000000003', To: '+919999900000', Body: 'PMT again' };
      cb = { url, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(sb.credentials.twilio.authToken, url, params) }, body: new URLSearchParams(params).toString() };
    } else {
      cb = {
        url: `${h.deps.config.PUBLIC_URL}/api/sms/msg91/inbound?token=${encodeURIComponent(sb.credentials.msg91.webhookToken)}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestId: id, sender: '919000000003', inNumber: '919999900000', content: 'PMT again' }),
      };
    }
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.app.request(cb.url, { method: 'POST', headers: cb.headers, body: cb.body })));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(seen.length - before).toBe(1);
    // Forged: the text changed under the same signature (Twilio), or the token wrong (MSG91).
    const forged = protocol === 'twilio' ? { ...cb, body: cb.body.replace('MessageSid=SM', 'MessageSid=SX').replace('PMT+again', 'PMT+forged') } : { ...cb, url: cb.url.replace(/token=[^&]+/, 'token=wrong-token-wrong-token') };
    const r = await h.app.request(forged.url, { method: 'POST', headers: forged.headers, body: forged.body });
    expect(r.status).toBe(401);
    expect(seen.length - before).toBe(1);
  });

  test('the sandbox page lists a number’s messages and has the form', async () => {
    const page = await (await h.app.request('/sandbox/sms?number=%2B919000000003')).text();
    expect(page).toContain('PMT hello');
    expect(page).toContain('action="/sandbox/sms/send-inbound"');
    const sent = await h.app.request('/sandbox/sms/send-inbound', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'from=9000000003&text=PMT+from+the+page' });
    expect(sent.status).toBe(303);
    expect(seen.at(-1)!.text).toBe('PMT from the page');
  });
});

test('outbox rows of two providers never match each other’s reports', async () => {
  const h = await startHarness();
  try {
    const m = mobile();
    await signup(h, m);
    await h.request('POST', '/OTP/requestOTP', { body: { type: 'mobile', mobile: m } });
    await inbox(h, `+91${m}`);
    const rows = await h.deps.db.select().from(outbox).where(and(eq(outbox.recipient, `+91${m}`), eq(outbox.provider, 'msg91')));
    expect(rows).toEqual([]);
  } finally {
    await h.destroy();
  }
});
