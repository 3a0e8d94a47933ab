import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { person, role } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

let h: Harness;
let admin: string;
/** Every response body of this file, checked at the end for password material. */
const seen: string[] = [];

async function req(method: string, url: string, init: { token?: string; body?: unknown } = {}) {
  const r = await h.request(method, url, init);
  seen.push(JSON.stringify(r.body));
  expect(r.status).toBeLessThan(500);
  return r;
}
const asAdmin = (method: string, url: string, body?: unknown) => req(method, url, { token: admin, ...(body === undefined ? {} : { body }) });
const permsOf = (view: { permissions: { permission: string }[] }) => view.permissions.map((p) => p.permission).sort();

beforeAll(async () => {
  h = await startHarness();
  admin = await h.tokenOf('admin');
});
afterAll(() => h.destroy());

describe('GET /Person/get (search)', () => {
  test('finds by name', async () => {
    const r = await asAdmin('GET', '/Person/get?strQuery=Lata');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.count).toBe(1);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ id: 'demo-learner', n: 'Lata Learner', m: '+919000000003', e: 'learner@example.com' });
  });

  test('finds by a fragment of the mobile', async () => {
    const r = await asAdmin('GET', '/Person/get?strQuery=0000002');
    expect(r.status).toBe(200);
    expect(r.body.data.map((p: { id: string }) => p.id)).toEqual(['demo-editor']);
  });

  test('finds by e-mail', async () => {
    const r = await asAdmin('GET', `/Person/get?strQuery=${encodeURIComponent('admin@example')}`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((p: { id: string }) => p.id)).toEqual(['demo-admin']);
  });

  test('LIKE wildcards in the query are literal', async () => {
    const r = await asAdmin('GET', `/Person/get?strQuery=${encodeURIComponent('%_%_')}`);
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(0);
    expect(r.body.data).toEqual([]);
  });

  test('§9: the search begins after more than 3 characters: 1 to 3 (trimmed) are refused, none lists everyone', async () => {
    for (const q of ['L', 'Lat', '  Lat  ', '900']) {
      const r = await asAdmin('GET', `/Person/get?strQuery=${encodeURIComponent(q)}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'Type more than 3 characters to search' });
    }
    expect((await asAdmin('GET', '/Person/get?strQuery=Lata')).body.count).toBe(1);
    const none = await asAdmin('GET', `/Person/get?strQuery=${encodeURIComponent('   ')}`);
    expect(none.status).toBe(200);
    expect(none.body.count).toBeGreaterThan(3);
  });

  test('pages by 30 by default; limit and offset page through, count is the total', async () => {
    // 32 people through the API (the admin's own create route).
    for (let i = 1; i <= 32; i++) {
      const nn = String(i).padStart(2, '0');
      const r = await asAdmin('POST', '/Person', { n: `Bulk Person ${nn}`, m: `81000000${nn}`, password: 'pass1234' });
      expect(r.status).toBe(201);
    }
    const first = await asAdmin('GET', '/Person/get?strQuery=Bulk');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(32);
    expect(first.body.data).toHaveLength(30);
    // Ordered by name.
    expect(first.body.data[0].n).toBe('Bulk Person 01');
    expect(first.body.data[29].n).toBe('Bulk Person 30');

    const rest = await asAdmin('GET', '/Person/get?strQuery=Bulk&offset=30');
    expect(rest.body.count).toBe(32);
    expect(rest.body.data.map((p: { n: string }) => p.n)).toEqual(['Bulk Person 31', 'Bulk Person 32']);

    const page = await asAdmin('GET', '/Person/get?strQuery=Bulk&limit=5&offset=10');
    expect(page.body.data.map((p: { n: string }) => p.n)).toEqual(['Bulk Person 11', 'Bulk Person 12', 'Bulk Person 13', 'Bulk Person 14', 'Bulk Person 15']);

    // The pages do not overlap and together hold everyone.
    const ids = new Set([...first.body.data, ...rest.body.data].map((p: { id: string }) => p.id));
    expect(ids.size).toBe(32);

    // Without a query: everyone, still 30 a page.
    const all = await asAdmin('GET', '/Person/get');
    expect(all.body.count).toBe(32 + 7 + 8); // the bulk people, the 7 demo accounts, the 8 demo members (fixtures/demo-sales.json)
    expect(all.body.data).toHaveLength(30);
  });

  test('limits outside 1..100 are refused', async () => {
    expect((await asAdmin('GET', '/Person/get?limit=0')).status).toBe(400);
    expect((await asAdmin('GET', '/Person/get?limit=101')).status).toBe(400);
    expect((await asAdmin('GET', '/Person/get?offset=-1')).status).toBe(400);
  });
});

describe('GET /Person/getReferrer (anonymous)', () => {
  test('an exact mobile answers a masked name and an opaque handle, never the id or the full name', async () => {
    const r = await req('GET', '/Person/getReferrer?strQuery=9000000003');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toHaveLength(1);
    const found = r.body.data[0];
    expect(Object.keys(found).sort()).toEqual(['id', 'n']);
    expect(found.n).toBe('La*** Le***');
    expect(found.id).toMatch(/^r1\.9000000003\.[A-Za-z0-9_-]{22}$/);
    const text = JSON.stringify(r.body);
    for (const secret of ['demo-learner', 'Lata', 'Learner', 'learner@example.com']) expect(text).not.toContain(secret);
  });

  test('the +91 form is the same lookup', async () => {
    const plain = await req('GET', '/Person/getReferrer?strQuery=9000000003');
    const r = await req('GET', `/Person/getReferrer?strQuery=${encodeURIComponent('+919000000003')}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(plain.body.data);
  });

  test('an unknown mobile answers empty data', async () => {
    const r = await req('GET', '/Person/getReferrer?strQuery=9999999999');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: [] });
  });

  test('a fragment is not a match (exact lookup only)', async () => {
    const r = await req('GET', '/Person/getReferrer?strQuery=90000000');
    expect(r.status).toBe(400);
  });

  test('a bad mobile is refused with the mobile message', async () => {
    const r = await req('GET', '/Person/getReferrer?strQuery=12345');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: 'Please provide a valid 10 digit mobile number' });
  });
});

describe('POST /Person', () => {
  let createdId = '';

  test("creates a person with a role and copies the role's permissions", async () => {
    const r = await asAdmin('POST', '/Person', { n: 'Ravi Kumar', m: '9111111111', e: 'Ravi@Example.com', r: 'QUESTION_EDITOR' });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    expect(r.body.msg).toBe('Ravi Kumar created successfully. Assign role and permissions');
    createdId = r.body.id;
    expect(r.body.data).toMatchObject({ id: createdId, n: 'Ravi Kumar', m: '+919111111111', e: 'ravi@example.com', s: 'ACTIVE' });
    expect(r.body.data.r).toMatchObject({ name: 'QUESTION_EDITOR' });
    expect(permsOf(r.body.data)).toEqual(['QUESTION_EDITOR']);

    const row = await first(h.deps.db.select().from(person).where(eq(person.id, createdId)));
    expect(row?.mobile).toBe('+919111111111');
    expect(row?.email).toBe('ravi@example.com');
    // No password given: the person must set one (spec: generated password, reset required).
    expect(row?.iprr).toBe(1);
  });

  test('the role may be given by id; without a role the person is a MEMBER with no permissions', async () => {
    const trustee = await first(h.deps.db.select().from(role).where(eq(role.name, 'TRUSTEE')));
    const byId = await asAdmin('POST', '/Person', { n: 'Tara Trustee', m: '9111111112', r: trustee?.id });
    expect(byId.status).toBe(201);
    expect(byId.body.data.r.name).toBe('TRUSTEE');
    expect(permsOf(byId.body.data)).toEqual(['APPROVE_CAMPAIGN', 'APPROVE_WITHDRAWAL', 'VIEW_REPORT']);

    const plain = await asAdmin('POST', '/Person', { n: 'Manoj Member', m: '+91 91111 11113' });
    expect(plain.status).toBe(201);
    expect(plain.body.data.m).toBe('+919111111113');
    expect(plain.body.data.r.name).toBe('MEMBER');
    expect(plain.body.data.permissions).toEqual([]);
  });

  test('missing name and missing mobile are refused with their messages', async () => {
    const before = (await h.deps.db.select().from(person)).length;
    const noName = await asAdmin('POST', '/Person', { m: '9111111119' });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ success: false, msg: 'Name is required' });
    const blankName = await asAdmin('POST', '/Person', { n: '   ', m: '9111111119' });
    expect(blankName.status).toBe(400);
    expect(blankName.body.msg).toBe('Name is required');
    const noMobile = await asAdmin('POST', '/Person', { n: 'No Mobile' });
    expect(noMobile.status).toBe(400);
    expect(noMobile.body).toMatchObject({ success: false, msg: 'Mobile is required' });
    const badMobile = await asAdmin('POST', '/Person', { n: 'Bad Mobile', m: '12345' });
    expect(badMobile.status).toBe(400);
    expect(badMobile.body.msg).toBe('Please provide a valid 10 digit mobile number');
    expect((await h.deps.db.select().from(person)).length).toBe(before);
  });

  test('a taken mobile or e-mail, or an unknown role, is refused', async () => {
    const mobile = await asAdmin('POST', '/Person', { n: 'Dup Mobile', m: '9000000003' });
    expect(mobile.status).toBe(409);
    expect(mobile.body.msg).toBe('This mobile number is already registered');
    const email = await asAdmin('POST', '/Person', { n: 'Dup Email', m: '9111111118', e: 'LEARNER@example.com' });
    expect(email.status).toBe(409);
    expect(email.body.msg).toBe('This email is already registered');
    const roleMissing = await asAdmin('POST', '/Person', { n: 'No Role', m: '9111111118', r: 'NO_SUCH_ROLE' });
    expect(roleMissing.status).toBe(400);
    expect(roleMissing.body.msg).toBe('Role not found');
  });

  describe('PUT /Person', () => {
    test('changes the name; the message names the person', async () => {
      const r = await asAdmin('PUT', '/Person', { id: createdId, n: 'Ravi Kumar Singh' });
      expect(r.status).toBe(200);
      expect(r.body.msg).toBe('Ravi Kumar Singh updated successfully');
      expect(r.body.data.n).toBe('Ravi Kumar Singh');
      // Role unchanged: permissions unchanged.
      expect(permsOf(r.body.data)).toEqual(['QUESTION_EDITOR']);
    });

    test("a role change copies the new role's permissions", async () => {
      const r = await asAdmin('PUT', '/Person', { id: createdId, r: 'TRUSTEE' });
      expect(r.status).toBe(200);
      expect(r.body.msg).toBe('Ravi Kumar Singh updated successfully');
      expect(r.body.data.r.name).toBe('TRUSTEE');
      expect(permsOf(r.body.data)).toEqual(['APPROVE_CAMPAIGN', 'APPROVE_WITHDRAWAL', 'VIEW_REPORT']);
      const detail = await asAdmin('GET', `/Person/${createdId}`);
      expect(detail.body.data.r.name).toBe('TRUSTEE');
      expect(permsOf(detail.body.data)).toEqual(['APPROVE_CAMPAIGN', 'APPROVE_WITHDRAWAL', 'VIEW_REPORT']);
    });

    test('a mobile is stored with +91; a taken one is refused', async () => {
      const ok = await asAdmin('PUT', '/Person', { id: createdId, m: '9111111121' });
      expect(ok.status).toBe(200);
      expect(ok.body.data.m).toBe('+919111111121');
      const taken = await asAdmin('PUT', '/Person', { id: createdId, m: '9000000002' });
      expect(taken.status).toBe(409);
    });

    test('an unknown person is 404', async () => {
      const r = await asAdmin('PUT', '/Person', { id: 'no-such-person', n: 'Nobody Here' });
      expect(r.status).toBe(404);
    });
  });

  describe('PATCH /Person/updatePermissionCollection', () => {
    test('stores the names uppercase', async () => {
      const r = await asAdmin('PATCH', '/Person/updatePermissionCollection', {
        id: createdId,
        permissions: ['shop_editor', { permission: 'view_report' }],
      });
      expect(r.status).toBe(200);
      expect(r.body.msg).toBe('Ravi Kumar Singh updated successfully');
      expect(permsOf(r.body.data)).toEqual(['SHOP_EDITOR', 'VIEW_REPORT']);
      const detail = await asAdmin('GET', `/Person/${createdId}`);
      expect(permsOf(detail.body.data)).toEqual(['SHOP_EDITOR', 'VIEW_REPORT']);
    });

    test('an unknown permission is refused and nothing changes', async () => {
      const r = await asAdmin('PATCH', '/Person/updatePermissionCollection', {
        id: createdId,
        permissions: ['QUESTION_EDITOR', 'NO_SUCH_PERMISSION'],
      });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.msg).toContain('NO_SUCH_PERMISSION');
      const detail = await asAdmin('GET', `/Person/${createdId}`);
      expect(permsOf(detail.body.data)).toEqual(['SHOP_EDITOR', 'VIEW_REPORT']);
    });

    test('a granted permission takes effect on the next request of that person', async () => {
      await asAdmin('PATCH', '/Person/updatePermissionCollection', { id: 'demo-learner', permissions: ['UPDATE_PERSON'] });
      const learner = await h.tokenOf('learner');
      const allowed = await req('GET', '/Person/demo-editor', { token: learner });
      expect(allowed.status).toBe(200);
      await asAdmin('PATCH', '/Person/updatePermissionCollection', { id: 'demo-learner', permissions: [] });
      const revoked = await req('GET', '/Person/demo-editor', { token: learner });
      expect(revoked.status).toBe(403);
    });
  });

  describe('DELETE /Person/:id', () => {
    test('deletes a person; their referrals move up to the grandparent', async () => {
      const parent = await asAdmin('POST', '/Person', { n: 'Parent Person', m: '9111111131', p: 'demo-editor' });
      const child = await asAdmin('POST', '/Person', { n: 'Child Person', m: '9111111132', p: parent.body.id });
      expect(child.status).toBe(201);

      const r = await asAdmin('DELETE', `/Person/${parent.body.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true, msg: 'Person deleted successfully' });
      expect((await asAdmin('GET', `/Person/${parent.body.id}`)).status).toBe(404);
      const moved = await asAdmin('GET', `/Person/${child.body.id}`);
      expect(moved.body.data.p).toBe('demo-editor');
    });

    test('an unknown id is 404', async () => {
      const r = await asAdmin('DELETE', '/Person/no-such-id');
      expect(r.status).toBe(404);
      expect(r.body.success).toBe(false);
    });

    test('deleting yourself is refused with 409 and you stay', async () => {
      const r = await asAdmin('DELETE', '/Person/demo-admin');
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ success: false, msg: 'You cannot delete your own account' });
      expect(await first(h.deps.db.select().from(person).where(eq(person.id, 'demo-admin')))).toBeDefined();
    });
  });
});

describe('customers (people with the MEMBER role)', () => {
  test('getTotalCustomers counts the members', async () => {
    const member = await first(h.deps.db.select().from(role).where(eq(role.name, 'MEMBER')));
    const expected = (await h.deps.db.select().from(person).where(eq(person.roleId, member?.id ?? ''))).length;
    const r = await asAdmin('GET', '/Person/getTotalCustomers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, count: expected });
    expect(expected).toBeGreaterThan(30);
  });

  test('queryCustomers lists only members, searches with q and pages with l and o', async () => {
    const all = await asAdmin('GET', '/Person/queryCustomers?l=100');
    expect(all.status).toBe(200);
    const total = (await asAdmin('GET', '/Person/getTotalCustomers')).body.count;
    expect(all.body.data).toHaveLength(total);
    for (const p of all.body.data) expect(p.r.name).toBe('MEMBER');
    const ids = all.body.data.map((p: { id: string }) => p.id);
    expect(ids).toContain('demo-learner');
    expect(ids).not.toContain('demo-admin');
    expect(ids).not.toContain('demo-editor');

    const byName = await asAdmin('GET', '/Person/queryCustomers?q=Lata');
    expect(byName.body.data.map((p: { id: string }) => p.id)).toEqual(['demo-learner']);

    // Default page 30; consecutive pages neither overlap nor skip.
    const p1 = await asAdmin('GET', '/Person/queryCustomers');
    expect(p1.body.data).toHaveLength(30);
    const p2 = await asAdmin('GET', '/Person/queryCustomers?l=30&o=30');
    const paged = [...p1.body.data, ...p2.body.data].map((p: { id: string }) => p.id);
    expect(new Set(paged).size).toBe(total);
    expect(paged).toEqual(ids);
  });

  test('unknown query parameters are refused', async () => {
    expect((await asAdmin('GET', '/Person/queryCustomers?bogus=1')).status).toBe(400);
    expect((await asAdmin('GET', '/Person/getTotalCustomers?bogus=1')).status).toBe(400);
  });
});

test('no person response carries a password or its hash', () => {
  expect(seen.length).toBeGreaterThan(40);
  for (const text of seen) {
    expect(text.toLowerCase()).not.toContain('password');
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('tokenVersion');
  }
});
