import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_BODY_BYTES } from './app';
import {
  activityLog,
  brand,
  contactMessage,
  oneTimeCode,
  outbox,
  permission,
  person,
  personPermission,
  pushSubscription,
  revisionCounter,
  role,
  rolePermission,
  tag,
} from './db/schema';
import { type Harness, startHarness } from './test/harness';
import { first } from './db/transaction';

/*
 * Hostile and broken input against a sample of write endpoints: every answer is a 4xx in the
 * `{ success: false, msg }` shape, never a 500 or a stack trace, and nothing in the database moves.
 */

let h: Harness;
let admin: string;

type Target = { name: string; method: string; url: string; token: () => string | undefined; valid: Record<string, unknown>; wrongTypes: Record<string, unknown> };

const TARGETS: Target[] = [
  {
    name: 'signup',
    method: 'POST',
    url: '/UserLogin',
    token: () => undefined,
    valid: { n: 'Valid Name', m: '9444444401', password: 'abcd1234', p: 'demo-admin', terms: true },
    wrongTypes: { n: 12345, m: 9444444401, password: true, p: ['demo-admin'] },
  },
  {
    name: 'create person',
    method: 'POST',
    url: '/Person',
    token: () => admin,
    valid: { n: 'Valid Person', m: '9444444402' },
    wrongTypes: { n: ['Valid Person'], m: { number: '9444444402' } },
  },
  {
    name: 'update role',
    method: 'PUT',
    url: '/role',
    token: () => admin,
    valid: { id: 'placeholder', name: 'RENAMED_ROLE' },
    wrongTypes: { id: 42, name: false, permissions: 'SHOP_EDITOR' },
  },
  {
    name: 'patch tag',
    method: 'PATCH',
    url: '/tag',
    token: () => admin,
    valid: { key: 't', newTag: 'Valid Topic', lang: 'en' },
    wrongTypes: { key: 't', newTag: 42, lang: 'en' },
  },
  {
    name: 'contact',
    method: 'POST',
    url: '/generic/submit-contact-details',
    token: () => undefined,
    valid: { name: 'Valid Name', mobile: '9444444403', description: 'Hello' },
    wrongTypes: { name: 'Valid Name', mobile: 9444444403, description: { text: 'Hello' } },
  },
  {
    // A device's Web Push subscription (docs/configuration.md "Push messages (Web Push)") on the spec's push-token path.
    name: 'push subscription',
    method: 'PATCH',
    url: '/generic/update-firebase-token',
    token: () => admin,
    valid: {
      endpoint: 'http://127.0.0.1:9/push/bad-input-device',
      keys: { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' },
    },
    wrongTypes: { endpoint: 42, keys: 'p256dh', lang: ['en'] },
  },
  {
    name: 'create permission',
    method: 'POST',
    url: '/permission',
    token: () => admin,
    valid: { permission: 'VALID_PERMISSION' },
    wrongTypes: { permission: 7, description: null },
  },
];

const TABLES = { person, role, permission, rolePermission, personPermission, activityLog, tag, contactMessage, brand, pushSubscription, outbox, oneTimeCode };

async function snapshot() {
  const counts: Record<string, number> = {};
  for (const [name, t] of Object.entries(TABLES)) counts[name] = (await h.deps.db.select().from(t)).length;
  return { ...counts, rev: (await first(h.deps.db.select().from(revisionCounter)))?.value ?? -1 };
}

/** The shape every refusal must have, and no leaked internals. */
function expectCleanRefusal(r: { status: number; body: any }, status: number) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ success: false, msg: expect.any(String), code: expect.any(String) });
  expect(r.body.msg.length).toBeGreaterThan(0);
  const text = JSON.stringify(r.body);
  expect(text).not.toMatch(/stack/i);
  expect(text).not.toMatch(/\bat [^\s]+ \(|\bat .*:\d+:\d+/);
  expect(text).not.toMatch(/node_modules|\.ts:\d+|SqliteError|ZodError/);
}

let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
  const trustee = (await h.deps.db.select().from(role)).find((r) => r.name === 'TRUSTEE');
  (TARGETS[2] as Target).valid.id = trustee?.id;
  before = await snapshot();
});
afterAll(() => h.destroy());

function send(t: Target, init: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) {
  const token = t.token();
  return h.request(t.method, t.url, { ...(token ? { token } : {}), ...init });
}

describe.each(TARGETS)('$name ($method $url)', (t) => {
  test('malformed JSON is 400 with a message', async () => {
    for (const raw of ['{"n":', '{n: 1}', "{'a': 1}", 'undefined', '{"a":1}}']) {
      const r = await send(t, { rawBody: raw });
      expectCleanRefusal(r, 400);
      expect(r.body.msg).toBe('Malformed JSON body');
    }
  });

  test('a JSON body that is not an object is 400', async () => {
    for (const raw of ['null', '[]', '"text"', '42', 'true']) {
      const r = await send(t, { rawBody: raw });
      expectCleanRefusal(r, 400);
    }
  });

  test('a non-JSON content type is 400, even with a valid JSON body', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const r = await send(t, { rawBody: JSON.stringify(t.valid), headers: { 'content-type': type } });
      expectCleanRefusal(r, 400);
      expect(r.body.msg).toBe('Content-Type must be application/json');
    }
    // No content type at all.
    const token = t.token();
    const res = await h.app.request(`/api${t.url}`, {
      method: t.method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: new TextEncoder().encode(JSON.stringify(t.valid)),
    });
    const body = await res.json();
    expectCleanRefusal({ status: res.status, body }, 400);
  });

  test('an empty body is 400', async () => {
    const r = await send(t, { rawBody: '', headers: { 'content-type': 'application/json' } });
    expectCleanRefusal(r, 400);
  });

  test('a body over 1 MiB is 413 with a message', async () => {
    const big = { ...t.valid, description: 'x'.repeat(MAX_BODY_BYTES + 10) };
    const r = await send(t, { body: big });
    expectCleanRefusal(r, 413);
    expect(r.body.msg).toBe('Request body is too large');
    // As a real client sends it, with a Content-Length header: refused before the body is read.
    const raw = `{"n":"${'y'.repeat(MAX_BODY_BYTES + 1)}"}`;
    const token = t.token();
    const res = await h.app.request(`/api${t.url}`, {
      method: t.method,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(raw)), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: raw,
    });
    expect(res.status).toBe(413);
  });

  test('wrong types are 400', async () => {
    const r = await send(t, { body: t.wrongTypes });
    expectCleanRefusal(r, 400);
  });

  test('an unknown field is 400 naming the field', async () => {
    const r = await send(t, { body: { ...t.valid, isAdmin: true } });
    expectCleanRefusal(r, 400);
    expect(r.body.msg).toBe('Unknown field: isAdmin');
  });

  test('prototype-polluting keys are refused and pollute nothing', async () => {
    const r = await send(t, { rawBody: `{"__proto__":{"polluted":1},${JSON.stringify(t.valid).slice(1)}` });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('query strings on GET /Person/get', () => {
  test('an unknown parameter is 400', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=Lata&role=ADMIN', { token: admin });
    expectCleanRefusal(r, 400);
    expect(r.body.msg).toBe('Unknown field: role');
  });

  test('a repeated parameter is 400', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=Lata&strQuery=Asha', { token: admin });
    expectCleanRefusal(r, 400);
    expect(r.body.msg).toBe('Parameter strQuery given more than once');
  });

  test('wrong types in the query are 400', async () => {
    for (const q of ['limit=abc', 'limit=1.5', 'offset=-3', 'limit=1e9', `strQuery=${'a'.repeat(101)}`]) {
      const r = await h.request('GET', `/Person/get?${q}`, { token: admin });
      expectCleanRefusal(r, 400);
    }
  });

  test('the valid query still works', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=Lata&limit=5&offset=0', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.data[0].id).toBe('demo-learner');
  });
});

describe('ids in paths', () => {
  test('a malformed id is 400, not a server error', async () => {
    for (const url of [`/Person/${encodeURIComponent("x' or 1=1 --")}`, `/Person/${'a'.repeat(65)}`, `/role/${encodeURIComponent('../etc')}`]) {
      const r = await h.request('DELETE', url, { token: admin });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.success).toBe(false);
    }
  });
});

test('none of the bad requests changed a row', async () => {
  expect(await snapshot()).toEqual(before);
});
