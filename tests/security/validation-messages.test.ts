import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Smaller points": bad input gets a 400 whose `msg` names
 * the field and what it must be, in English and Hindi. A field that is there with the wrong type
 * used to answer "<field> is required" (zod leaves the value out of its issues unless asked, so
 * every type error looked like a missing field), or a schema's own "… is required". The rule
 * lives in server/src/lib/http.ts, which every route's body, query and parameters go through;
 * this sweeps routes of several modules with wrong-typed and missing fields.
 */

let h: Harness;
const tokens: Record<'admin' | 'editor' | 'learner', string> = { admin: '', editor: '', learner: '' };
beforeAll(async () => {
  h = await startHarness();
  for (const who of ['admin', 'editor', 'learner'] as const) tokens[who] = await h.tokenOf(who);
});
afterAll(() => h.destroy());

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hindi = JSON.parse(readFileSync(path.join(root, 'client/src/locales/hi/messages.json'), 'utf8')) as Record<string, string>;
const keyOf = new Map<string, string>(Object.entries(MSG).map(([k, v]) => [v, k]));

/** The message's text after the field name: a server message with its Hindi translation. */
function expectTranslatable(msg: string, field: string) {
  expect(msg.startsWith(`${field} `)).toBe(true);
  const rest = msg.slice(field.length + 1);
  const key = keyOf.get(rest);
  expect(key, `"${rest}" is not a server message (MSG)`).toBeDefined();
  expect(hindi[key!], `no Hindi for ${key}`).toMatch(/[\u0900-\u097F]/);
}

type Case = { route: string; token?: keyof typeof tokens; body: Record<string, unknown> | unknown[]; field: string; msg: string };

const VALID_P256DH = 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4';

const WRONG_TYPES: Case[] = [
  { route: 'POST /UserLogin', body: { n: 12345, m: '9444444401', password: 'abcd1234', p: 'demo-admin', terms: true }, field: 'n', msg: MSG.mustBeText },
  { route: 'POST /UserLogin', body: { n: 'Valid Name', m: '9444444401', password: true, p: 'demo-admin', terms: true }, field: 'password', msg: MSG.mustBeText },
  { route: 'POST /UserLogin/resetPassword', body: { username: 9000000003 }, field: 'username', msg: MSG.mustBeText },
  { route: 'POST /OTP/requestOTP', body: { type: 'mobile', mobile: 9000000003 }, field: 'mobile', msg: MSG.mustBeText },
  { route: 'POST /generic/submit-contact-details', body: { name: 'Valid Name', mobile: '9444444403', description: { text: 'Hello' } }, field: 'description', msg: MSG.mustBeText },
  { route: 'PATCH /generic/update-firebase-token', token: 'learner', body: { endpoint: 42, keys: { p256dh: VALID_P256DH, auth: 'BTBZMqHH6r4Tts7J_aSIgg' } }, field: 'endpoint', msg: MSG.mustBeText },
  { route: 'PATCH /generic/update-firebase-token', token: 'learner', body: { endpoint: 'http://127.0.0.1:9/push/x', keys: 'p256dh' }, field: 'keys', msg: MSG.mustBeObject },
  { route: 'PATCH /generic/update-firebase-token', token: 'learner', body: { endpoint: 'http://127.0.0.1:9/push/x', keys: { p256dh: VALID_P256DH, auth: 5 } }, field: 'keys.auth', msg: MSG.mustBeText },
  { route: 'POST /payment', token: 'learner', body: { prodid: 'ONE_MONTH_PLAN', product: 42 }, field: 'product', msg: MSG.mustBeTextOrObject },
  { route: 'POST /payment', token: 'learner', body: { prodid: ['ONE_MONTH_PLAN'] }, field: 'prodid', msg: MSG.mustBeText },
  { route: 'POST /payment/createDummyOrder', token: 'learner', body: { amount: true }, field: 'amount', msg: MSG.mustBeNumberOrText },
  { route: 'POST /payment/retryPayment', token: 'learner', body: { id: 17 }, field: 'id', msg: MSG.mustBeText },
  { route: 'POST /question/import/preview', token: 'editor', body: { fileName: 'q.csv', format: 'csv', content: 42 }, field: 'content', msg: MSG.mustBeText },
  { route: 'POST /question/import', token: 'editor', body: { fileName: 'q.csv', format: 'csv', content: 'x', mode: 'all', skipDuplicates: 'yes' }, field: 'skipDuplicates', msg: MSG.mustBeBoolean },
  { route: 'POST /permission', token: 'admin', body: { permission: 7 }, field: 'permission', msg: MSG.mustBeText },
  { route: 'POST /UserLogin', body: [], field: 'body', msg: MSG.mustBeObject },
];

const MISSING: Case[] = [
  { route: 'POST /payment', token: 'learner', body: {}, field: 'prodid', msg: MSG.fieldRequired },
  { route: 'POST /payment/createDummyOrder', token: 'learner', body: { poid: 'x' }, field: 'amount', msg: MSG.fieldRequired },
  { route: 'POST /question/import/preview', token: 'editor', body: { fileName: 'q.csv', format: 'csv' }, field: 'content', msg: MSG.fieldRequired },
];

async function send(c: Case) {
  const [method, url] = c.route.split(' ') as [string, string];
  return h.request(method, url, { body: c.body, ...(c.token ? { token: tokens[c.token] } : {}) });
}

describe('a refused field is named with what it must be', () => {
  test.each(WRONG_TYPES)('$route: $field of the wrong type', async (c) => {
    const r = await send(c);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: `${c.field} ${c.msg}`, code: 'BAD_REQUEST' });
    expectTranslatable(r.body.msg, c.field);
  });

  test.each(MISSING)('$route: $field missing', async (c) => {
    const r = await send(c);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: `${c.field} ${c.msg}` });
    expectTranslatable(r.body.msg, c.field);
  });

  test('a check without a message of its own names the field too', async () => {
    const r = await h.request('POST', '/question/import/preview', { token: tokens.editor, body: { fileName: 'q.csv', format: 'csv', content: '' } });
    expect(r).toMatchObject({ status: 400, body: { msg: `content ${MSG.fieldEmpty}` } });
    const format = await h.request('POST', '/question/import/preview', { token: tokens.editor, body: { fileName: 'q.csv', format: 'docx', content: 'x' } });
    expect(format).toMatchObject({ status: 400, body: { msg: `format ${MSG.fieldNotAllowed}` } });
  });
});
