import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERMISSIONS } from '@pm/protocol/permission';
import { EDITOR_COLLECTIONS } from '@pm/protocol/sync/envelopes';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { ACCESS, type Access, type RouteKey } from './access';
import { type Harness, startHarness } from './test/harness';

/*
 * The route × caller matrix, generated from the one access table (access.ts): every entry is
 * called by an anonymous caller, the learner and the beneficiary (no permissions), the editor
 * (QUESTION_EDITOR only), the trustees (APPROVE_CAMPAIGN, APPROVE_WITHDRAWAL, HANDLE_GRIEVANCE and VIEW_REPORT) and the admin (every
 * permission). Write bodies are `{}`, so a 400 or 404 is an acceptable
 * answer for an authorised caller; what matters is where 401 and 403 appear and where not.
 */

type Caller = 'anonymous' | 'learner' | 'beneficiary' | 'editor' | 'trustee' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'learner', 'beneficiary', 'editor', 'trustee', 'admin'];
const SIGNED_IN = ['learner', 'beneficiary', 'editor', 'trustee', 'admin'] as const;

let h: Harness;
const tokens: Partial<Record<Caller, string>> = {};
const held: Record<Caller, Set<string>> = { anonymous: new Set(), learner: new Set(), beneficiary: new Set(), editor: new Set(), trustee: new Set(), admin: new Set() };
const covered = new Set<string>();

beforeAll(async () => {
  h = await startHarness();
  for (const who of SIGNED_IN) {
    const r = await h.login(`${who}@example.com`, `${who}1234`);
    expect(r.status).toBe(200);
    tokens[who] = r.body.token;
    held[who] = new Set((r.body.permissions as { permission: string }[]).map((p) => p.permission));
  }
});
afterAll(() => h.destroy());

/** A concrete URL for a table key: `:id` becomes a real person for reads, a dummy id for deletes. */
function urlOf(key: RouteKey): { method: string; url: string } {
  const space = key.indexOf(' ');
  const method = key.slice(0, space);
  const path = key.slice(space + 1);
  const id = method === 'DELETE' ? 'no-such-id' : 'demo-learner';
  return { method, url: path.replace(':id', id) };
}

async function call(key: RouteKey, who: Caller, tokenOverride?: string) {
  const { method, url } = urlOf(key);
  const token = tokenOverride ?? tokens[who as Exclude<Caller, 'anonymous'>];
  const isWrite = method !== 'GET' && method !== 'DELETE';
  return h.request(method, url, { ...(token ? { token } : {}), ...(isWrite ? { body: {} } : {}) });
}

function holdsAll(who: Caller, access: readonly string[]): boolean {
  return access.every((p) => held[who].has(p));
}

test('the demo accounts hold the permissions the matrix assumes', () => {
  expect([...held.admin].sort()).toEqual(Object.keys(PERMISSIONS).sort());
  expect([...held.editor]).toEqual(['QUESTION_EDITOR']);
  expect(held.learner.size).toBe(0);
  expect(held.beneficiary.size).toBe(0);
  expect([...held.trustee].sort()).toEqual(['APPROVE_CAMPAIGN', 'APPROVE_WITHDRAWAL', 'HANDLE_GRIEVANCE', 'VIEW_REPORT']);
});

const entries = Object.entries(ACCESS) as [RouteKey, Access][];

/**
 * Entries open to every caller for some queries only: the matrix calls them without a query, and
 * then they answer as this access would. `GET /question` reads questions by id for anyone
 * (published sets); listing the bank, as here, is authoring (questions.routes).
 */
const WITHOUT_QUERY: Partial<Record<RouteKey, Access>> = { 'GET /question': ['QUESTION_EDITOR'] };

/**
 * Public entries that authenticate a request by a signature of their own (docs/payments.md: the payment
 * providers' webhooks; docs/charity.md "Withdrawals": the payout provider's; docs/sms.md: the SMS providers' callbacks). The matrix sends no signature, so every caller, token or not, gets 401
 * 'Invalid signature' and never the login or permission refusals.
 */
const SIGNED = new Set<RouteKey>([
  'POST /phonepe/webhook',
  'POST /razorpay/webhook',
  'POST /webhook/razorpayx',
  // docs/sms.md: the SMS providers' callbacks (Twilio's signature, MSG91's token).
  'POST /sms/twilio/status',
  'POST /sms/twilio/inbound',
  'POST /sms/msg91/report',
  'POST /sms/msg91/inbound',
]);

/** Entries that end the caller's sessions (docs/security.md "Sessions and logout"): the caller signs in again after them. */
const ENDS_SESSIONS = new Set<RouteKey>(['POST /UserLogin/logout', 'POST /UserLogin/logoutAll']);

describe.each(entries)('%s', (key, declared) => {
  const access = WITHOUT_QUERY[key] ?? declared;
  for (const who of CALLERS) {
    test(`${who}`, async () => {
      covered.add(key);
      const r = await call(key, who);
      if (ENDS_SESSIONS.has(key) && who !== 'anonymous') {
        const again = await h.login(`${who}@example.com`, `${who}1234`);
        tokens[who] = again.body.token;
      }
      // Never a server error, whoever calls.
      expect(r.status).toBeLessThan(500);
      // Every table entry is a registered route: the app-level "Not found" is never the answer.
      expect(r.status === 404 && r.body?.msg === 'Not found').toBe(false);

      if (SIGNED.has(key)) {
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ success: false, msg: 'Invalid signature' });
        return;
      }
      if (access === 'public' || access === 'optional') {
        expect([401, 403]).not.toContain(r.status);
        return;
      }
      if (who === 'anonymous') {
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED', msg: 'Please login to continue' });
        return;
      }
      if (access === 'login' || holdsAll(who, access)) {
        expect([401, 403]).not.toContain(r.status);
        return;
      }
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ success: false, code: 'FORBIDDEN', msg: 'Permission denied' });
    });
  }

  test('a forged or expired token', async () => {
    const r = await call(key, 'anonymous', 'not-a-real-token');
    if (SIGNED.has(key)) {
      // The token is ignored; the missing signature is what is refused.
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, msg: 'Invalid signature' });
    } else if (access === 'public') {
      // A public route ignores any token it is sent.
      expect([401, 403]).not.toContain(r.status);
    } else {
      // `optional`, `login` and permission routes refuse a bad token instead of treating it as anonymous.
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, msg: 'Session expired. Please login again.' });
    }
  });
});

test('the matrix covered every entry of the access table', () => {
  expect(covered.size).toBe(Object.keys(ACCESS).length);
  expect([...covered].sort()).toEqual(Object.keys(ACCESS).sort());
});

test("admin's calls in the matrix broke nothing: every demo account still signs in and reads itself", async () => {
  for (const who of SIGNED_IN) {
    const r = await h.request('GET', '/Person', { token: tokens[who] });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(`demo-${who}`);
  }
});

describe('a learner reads only their own record', () => {
  test('GET /Person answers the learner', async () => {
    const r = await h.request('GET', '/Person', { token: tokens.learner });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({ id: 'demo-learner', n: 'Lata Learner', m: '+919000000003', e: 'learner@example.com' });
    expect(r.body.data.r).toMatchObject({ name: 'MEMBER' });
    expect(r.body.data.permissions).toEqual([]);
    // The learner's referrer is the admin.
    expect(r.body.data.uplines).toEqual([{ id: 'demo-admin', name: 'Asha Admin' }]);
  });

  test("another person's record is refused", async () => {
    const r = await h.request('GET', '/Person/demo-admin', { token: tokens.learner });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, msg: 'Permission denied' });
    expect(JSON.stringify(r.body)).not.toContain('Asha');
  });

  test('the learner cannot search people either', async () => {
    const r = await h.request('GET', '/Person/get?strQuery=Asha', { token: tokens.learner });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe('Permission denied');
  });
});

/**
 * The sync routes are one table entry each ('login'); which collection may be replicated is
 * decided per collection (docs/authoring.md "Offline authoring"): the editors' collections need QUESTION_EDITOR.
 */
describe.each(EDITOR_COLLECTIONS)('sync collection %s (editors only)', (collection) => {
  const V = { 'x-sync-protocol': PROTOCOL_VERSION };
  for (const who of CALLERS) {
    test(`${who}`, async () => {
      const token = tokens[who as Exclude<Caller, 'anonymous'>];
      const pull = await h.request('GET', `/sync/v1/${collection}/pull?rev=0&limit=1`, { ...(token ? { token } : {}), headers: V });
      const push = await h.request('POST', `/sync/v1/${collection}/push`, { ...(token ? { token } : {}), headers: V, body: [] });
      const expected = who === 'anonymous' ? 401 : holdsAll(who, ['QUESTION_EDITOR']) ? null : 403;
      if (expected) {
        expect(pull.status).toBe(expected);
        expect(push.status).toBe(expected);
      } else {
        expect(pull.status).toBe(200);
        // An empty push is malformed (at least one row), not refused.
        expect(push.status).toBe(400);
      }
    });
  }
});
