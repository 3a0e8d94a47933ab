import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { PERMISSIONS } from '@pm/protocol/permission';
import { permission, person, role } from '../../server/src/db/schema';
import { permissionsOf } from '../../server/src/modules/persons/persons.repo';
import { DEMO, type Harness, startHarness } from '../../server/src/test/harness';
import { first } from '../../server/src/db/transaction';

/**
 * docs/security.md "People, roles and permissions": privilege escalation. The rules live in server/src/modules/persons/privileges.ts
 * and are checked inside each write's transaction:
 * nobody changes their own role, permissions or status; nobody grants a permission they do not
 * hold (person edits, role choice, person creation, role templates); nobody manages a person who
 * holds a permission they lack; only an ADMIN changes, blocks, deletes or resets the password of
 * an ADMIN, gives the ADMIN role or edits it; at least one ACTIVE ADMIN always remains.
 */

const ALL = Object.keys(PERMISSIONS).sort();
const PASSWORD = 'Copper-Kettle-58';
let mobileSeq = 0;
const nextMobile = () => `95${String(10_000_000 + mobileSeq++).slice(-8)}`;

type Person = { id: string; token: string };

/** A person made by `adminToken` with a role and then exactly `permissions`, signed in. */
async function makePerson(h: Harness, adminToken: string, opts: { r?: string; permissions?: string[]; name?: string } = {}): Promise<Person> {
  const m = nextMobile();
  const created = await h.request('POST', '/Person', {
    token: adminToken,
    body: { n: opts.name ?? `Person ${m}`, m, password: PASSWORD, ...(opts.r ? { r: opts.r } : {}) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  if (opts.permissions) {
    const set = await h.request('PATCH', '/Person/updatePermissionCollection', { token: adminToken, body: { id, permissions: opts.permissions } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
  const login = await h.login(m, PASSWORD);
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { id, token: login.body.token as string };
}

const permsInDb = async (h: Harness, id: string) => (await permissionsOf(h.deps.db, id)).sort();
const rowOf = (h: Harness, id: string) => first(h.deps.db.select().from(person).where(eq(person.id, id)));
const roleNameOf = async (h: Harness, id: string) => {
  const r = await rowOf(h, id);
  return r?.roleId ? (await first(h.deps.db.select().from(role).where(eq(role.id, r.roleId))))?.name : undefined;
};
const roleId = async (h: Harness, name: string) => (await first(h.deps.db.select().from(role).where(eq(role.name, name))))!.id;
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('one harness, one admin', () => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startHarness();
    admin = await h.tokenOf('admin');
  });
  afterAll(() => h.destroy());

  test('a person holding only UPDATE_PERSON cannot give themselves any permission or role', async () => {
    const support = await makePerson(h, admin, { permissions: ['UPDATE_PERSON'] });
    const all = await h.request('PATCH', '/Person/updatePermissionCollection', { token: support.token, body: { id: support.id, permissions: ALL } });
    expect(all.status).toBe(403);
    expect(all.body.msg).toBe(MSG.ownAccessChange);
    const viaPut = await h.request('PUT', '/Person', { token: support.token, body: { id: support.id, permissions: ALL } });
    expect(viaPut.status).toBe(403);
    const asAdmin = await h.request('PUT', '/Person', { token: support.token, body: { id: support.id, r: 'ADMIN' } });
    expect(asAdmin.status).toBe(403);
    expect(await permsInDb(h, support.id)).toEqual(['UPDATE_PERSON']);
    expect(await roleNameOf(h, support.id)).toBe('MEMBER');
  });

  test('nobody changes their own role, permissions or status, an admin neither; their own name they may', async () => {
    const second = await makePerson(h, admin, { r: 'ADMIN' });
    for (const body of [{ r: 'MEMBER' }, { s: 'BLOCKED' }, { s: 'INACTIVE' }, { permissions: ['UPDATE_PERSON'] }]) {
      const r = await h.request('PUT', '/Person', { token: second.token, body: { id: second.id, ...body } });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.body.msg).toBe(MSG.ownAccessChange);
    }
    const patch = await h.request('PATCH', '/Person/updatePermissionCollection', { token: second.token, body: { id: second.id, permissions: ALL.slice(1) } });
    expect(patch.status).toBe(403);
    expect(await roleNameOf(h, second.id)).toBe('ADMIN');
    expect((await rowOf(h, second.id))?.status).toBe('ACTIVE');
    expect(await permsInDb(h, second.id)).toEqual(ALL);

    // The admin UI sends the unchanged role and status along with a new name: that is no change of access.
    const rename = await h.request('PUT', '/Person', { token: second.token, body: { id: second.id, n: 'Second Admin', r: 'ADMIN', s: 'ACTIVE' } });
    expect(rename.status).toBe(200);
    expect((await rowOf(h, second.id))?.name).toBe('Second Admin');
  });

  test('a person cannot grant a permission they do not hold', async () => {
    const support = await makePerson(h, admin, { permissions: ['UPDATE_PERSON'] });
    const target = await makePerson(h, admin);
    for (const [method, url, body] of [
      ['PATCH', '/Person/updatePermissionCollection', { id: target.id, permissions: ['VIEW_REPORT'] }],
      ['PATCH', '/Person/updatePermissionCollection', { id: target.id, permissions: ['UPDATE_PERSON', 'DELETE_PERSON'] }],
      ['PUT', '/Person', { id: target.id, permissions: ['SHOP_EDITOR'] }],
    ] as const) {
      const r = await h.request(method, url, { token: support.token, body });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.body.msg).toBe(MSG.permissionNotHeld);
    }
    expect(await permsInDb(h, target.id)).toEqual([]);
    // What they hold they may pass on.
    const ok = await h.request('PATCH', '/Person/updatePermissionCollection', { token: support.token, body: { id: target.id, permissions: ['UPDATE_PERSON'] } });
    expect(ok.status).toBe(200);
    expect(await permsInDb(h, target.id)).toEqual(['UPDATE_PERSON']);
  });

  test('fifty parallel grants of permissions the actor lacks, to themselves or another: none gets through', async () => {
    const support = await makePerson(h, admin, { permissions: ['UPDATE_PERSON'] });
    const target = await makePerson(h, admin);
    const unheld = ALL.filter((p) => p !== 'UPDATE_PERSON');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.request('PATCH', '/Person/updatePermissionCollection', {
          token: support.token,
          body: { id: i % 2 ? target.id : support.id, permissions: ['UPDATE_PERSON', unheld[i % unheld.length]!] },
        }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 403: 50 });
    expect(await permsInDb(h, support.id)).toEqual(['UPDATE_PERSON']);
    expect(await permsInDb(h, target.id)).toEqual([]);
  });

  test('a role whose permissions the actor does not all hold cannot be given', async () => {
    const support = await makePerson(h, admin, { permissions: ['UPDATE_PERSON'] });
    const target = await makePerson(h, admin);
    for (const r of ['TRUSTEE', 'QUESTION_EDITOR']) {
      const res = await h.request('PUT', '/Person', { token: support.token, body: { id: target.id, r } });
      expect(res.status, r).toBe(403);
      expect(res.body.msg).toBe(MSG.permissionNotHeld);
    }
    // Explicit permissions do not launder the role: the role's own permissions count.
    const laundered = await h.request('PUT', '/Person', { token: support.token, body: { id: target.id, r: 'TRUSTEE', permissions: [] } });
    expect(laundered.status).toBe(403);
    expect(await roleNameOf(h, target.id)).toBe('MEMBER');

    const helpers = await h.request('POST', '/role', { token: admin, body: { name: 'HELPDESK', permissions: ['UPDATE_PERSON'] } });
    expect(helpers.status).toBe(201);
    const given = await h.request('PUT', '/Person', { token: support.token, body: { id: target.id, r: 'HELPDESK' } });
    expect(given.status).toBe(200);
    expect(await permsInDb(h, target.id)).toEqual(['UPDATE_PERSON']);
  });

  test('giving the ADMIN role is an admin’s act, even for someone holding every permission', async () => {
    const almighty = await makePerson(h, admin, { permissions: ALL });
    const target = await makePerson(h, admin);
    const r = await h.request('PUT', '/Person', { token: almighty.token, body: { id: target.id, r: 'ADMIN' } });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe(MSG.adminOnly);
    const created = await h.request('POST', '/Person', { token: almighty.token, body: { n: 'Would Be Admin', m: nextMobile(), r: 'ADMIN' } });
    expect(created.status).toBe(403);
    expect(created.body.msg).toBe(MSG.adminOnly);
    expect(await roleNameOf(h, target.id)).toBe('MEMBER');
  });

  test('a person cannot be created with a role whose permissions the creator does not hold', async () => {
    const clerk = await makePerson(h, admin, { permissions: ['CREATE_PERSON'] });
    const before = (await h.deps.db.select().from(person)).length;
    for (const r of ['TRUSTEE', 'QUESTION_EDITOR']) {
      const res = await h.request('POST', '/Person', { token: clerk.token, body: { n: 'Raised Person', m: nextMobile(), r } });
      expect(res.status, r).toBe(403);
      expect(res.body.msg).toBe(MSG.permissionNotHeld);
    }
    expect((await h.deps.db.select().from(person)).length).toBe(before);
    const member = await h.request('POST', '/Person', { token: clerk.token, body: { n: 'Plain Member', m: nextMobile() } });
    expect(member.status).toBe(201);
    expect(member.body.data.permissions).toEqual([]);
  });

  test('a role template cannot be given, or lose, a permission its editor does not hold', async () => {
    const roles = await makePerson(h, admin, { permissions: ['CREATE_ROLE', 'UPDATE_ROLE'] });
    const created = await h.request('POST', '/role', { token: roles.token, body: { name: 'REPORTERS', permissions: ['VIEW_REPORT'] } });
    expect(created.status).toBe(403);
    expect(created.body.msg).toBe(MSG.permissionNotHeld);
    expect(await first(h.deps.db.select().from(role).where(eq(role.name, 'REPORTERS')))).toBeUndefined();

    const own = await h.request('POST', '/role', { token: roles.token, body: { name: 'ROLE_KEEPERS', permissions: ['UPDATE_ROLE'] } });
    expect(own.status).toBe(201);
    const id = own.body.data.id as string;
    const viaCollection = await h.request('PUT', '/role/updatePermissionCollection', { token: roles.token, body: { id, permissions: ['UPDATE_ROLE', 'VIEW_REPORT'] } });
    expect(viaCollection.status).toBe(403);
    const viaPut = await h.request('PUT', '/role', { token: roles.token, body: { id, name: 'ROLE_KEEPERS', permissions: ['UPDATE_ROLE', 'DELETE_PERSON'] } });
    expect(viaPut.status).toBe(403);
    const stripped = await h.request('PUT', '/role/updatePermissionCollection', { token: roles.token, body: { id: await roleId(h, 'TRUSTEE'), permissions: [] } });
    expect(stripped.status).toBe(403);
    expect(stripped.body.msg).toBe(MSG.permissionNotHeld);

    const listed = (await h.request('GET', '/role', { token: admin })).body.data as { name: string; permissions: { permission: string }[] }[];
    const names = (n: string) => listed.find((x) => x.name === n)!.permissions.map((p) => p.permission);
    expect(names('ROLE_KEEPERS')).toEqual(['UPDATE_ROLE']);
    expect(names('TRUSTEE')).toEqual(['APPROVE_CAMPAIGN', 'APPROVE_WITHDRAWAL', 'VIEW_REPORT']);
  });

  test('only an admin edits the ADMIN role; ADMIN and MEMBER are never renamed or deleted', async () => {
    const roles = await makePerson(h, admin, { permissions: ALL });
    const adminRole = await roleId(h, 'ADMIN');
    const shrink = await h.request('PUT', '/role/updatePermissionCollection', { token: roles.token, body: { id: adminRole, permissions: ALL.filter((p) => p !== 'VIEW_REPORT') } });
    expect(shrink.status).toBe(403);
    expect(shrink.body.msg).toBe(MSG.adminOnly);
    const rename = await h.request('PUT', '/role', { token: admin, body: { id: adminRole, name: 'OWNER' } });
    expect(rename.status).toBe(409);
    expect(rename.body.msg).toBe(MSG.roleBuiltIn);
    const member = await h.request('PUT', '/role', { token: admin, body: { id: await roleId(h, 'MEMBER'), name: 'LEARNER' } });
    expect(member.status).toBe(409);
    const delMember = await h.request('DELETE', `/role/${await roleId(h, 'MEMBER')}`, { token: admin });
    expect(delMember.status).toBe(409);
    expect(delMember.body.msg).toBe(MSG.roleBuiltIn);
    // Another role cannot take the name either.
    const trustee = await h.request('PUT', '/role', { token: admin, body: { id: await roleId(h, 'TRUSTEE'), name: 'ADMIN' } });
    expect(trustee.status).toBe(409);
    expect((await first(h.deps.db.select().from(role).where(eq(role.name, 'ADMIN'))))?.id).toBe(adminRole);
  });

  test('only an admin changes, blocks, deletes or resets the password of an admin', async () => {
    // Every permission there is, but not the ADMIN role.
    const almighty = await makePerson(h, admin, { permissions: ALL });
    const attempts = [
      ['PUT', '/Person', { id: DEMO.admin.id, n: 'Hijacked' }],
      ['PUT', '/Person', { id: DEMO.admin.id, e: 'attacker@example.com' }],
      ['PUT', '/Person', { id: DEMO.admin.id, s: 'BLOCKED' }],
      ['PUT', '/Person', { id: DEMO.admin.id, r: 'MEMBER' }],
      ['PATCH', '/Person/updatePermissionCollection', { id: DEMO.admin.id, permissions: [] }],
      ['PUT', '/UserLogin/resetUserPasswordByAdmin', { personId: DEMO.admin.id, password: 'Taken-Over-99' }],
      ['DELETE', `/Person/${DEMO.admin.id}`, undefined],
    ] as const;
    for (const [method, url, body] of attempts) {
      const r = await h.request(method, url, { token: almighty.token, ...(body ? { body } : {}) });
      expect(r.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(403);
      expect(r.body.msg).toBe(MSG.adminOnly);
    }
    const row = (await rowOf(h, DEMO.admin.id))!;
    expect(row).toMatchObject({ name: 'Asha Admin', email: 'admin@example.com', status: 'ACTIVE' });
    expect(await roleNameOf(h, DEMO.admin.id)).toBe('ADMIN');
    expect(await permsInDb(h, DEMO.admin.id)).toEqual(ALL);
    expect((await h.login(DEMO.admin.username, 'Taken-Over-99')).status).toBe(401);
    expect((await h.login(DEMO.admin.username, DEMO.admin.password)).status).toBe(200);

    // Another admin may.
    const second = await makePerson(h, admin, { r: 'ADMIN' });
    const byAdmin = await h.request('PUT', '/Person', { token: admin, body: { id: second.id, n: 'Renamed Admin' } });
    expect(byAdmin.status).toBe(200);
  });

  test('nobody manages a person holding a permission they lack: no reset, block, edit or delete', async () => {
    const support = await makePerson(h, admin, { permissions: ['UPDATE_PERSON', 'DELETE_PERSON'] });
    const attempts = [
      ['PUT', '/UserLogin/resetUserPasswordByAdmin', { personId: DEMO.editor.id, password: 'Taken-Over-99' }],
      ['PUT', '/Person', { id: DEMO.editor.id, s: 'BLOCKED' }],
      ['PUT', '/Person', { id: DEMO.editor.id, e: 'attacker@example.com' }],
      ['PATCH', '/Person/updatePermissionCollection', { id: DEMO.editor.id, permissions: [] }],
      ['DELETE', `/Person/${DEMO.editor.id}`, undefined],
    ] as const;
    for (const [method, url, body] of attempts) {
      const r = await h.request(method, url, { token: support.token, ...(body ? { body } : {}) });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.msg).toBe(MSG.personOutranks);
    }
    expect(await rowOf(h, DEMO.editor.id)).toMatchObject({ status: 'ACTIVE', email: 'editor@example.com' });
    expect(await permsInDb(h, DEMO.editor.id)).toEqual(['QUESTION_EDITOR']);
    expect((await h.login(DEMO.editor.username, DEMO.editor.password)).status).toBe(200);
    // A learner holds nothing the support desk lacks: managing them is its job.
    const reset = await h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: support.token, body: { personId: DEMO.learner.id, password: 'Fresh-Start-31' } });
    expect(reset.status).toBe(200);
  });

  test('nobody resets their own password through the admin route', async () => {
    const r = await h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: admin, body: { personId: DEMO.admin.id, password: 'Self-Service-77' } });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe(MSG.ownPasswordByProfile);
    expect((await h.login(DEMO.admin.username, DEMO.admin.password)).status).toBe(200);
  });

  test('the last active admin cannot be demoted, blocked or deleted', async () => {
    // Every other admin of this harness loses the role first: the demo admin is the last.
    for (const p of await h.deps.db.select().from(person).where(eq(person.roleId, await roleId(h, 'ADMIN')))) {
      if (p.id !== DEMO.admin.id) expect((await h.request('PUT', '/Person', { token: admin, body: { id: p.id, r: 'MEMBER' } })).status).toBe(200);
    }
    const almighty = await makePerson(h, admin, { permissions: ALL });
    for (const [token, expected] of [
      [admin, [403, 403, 409]],
      [almighty.token, [403, 403, 403]],
    ] as const) {
      const demote = await h.request('PUT', '/Person', { token, body: { id: DEMO.admin.id, r: 'MEMBER' } });
      const block = await h.request('PUT', '/Person', { token, body: { id: DEMO.admin.id, s: 'BLOCKED' } });
      const del = await h.request('DELETE', `/Person/${DEMO.admin.id}`, { token });
      expect([demote.status, block.status, del.status]).toEqual(expected);
    }
    expect(await roleNameOf(h, DEMO.admin.id)).toBe('ADMIN');
    expect((await rowOf(h, DEMO.admin.id))?.status).toBe('ACTIVE');
  });

  test('a role in use cannot be deleted, even while people are being given it in parallel', async () => {
    const made = await h.request('POST', '/role', { token: admin, body: { name: 'RACE_ROLE', permissions: [] } });
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    const creates = Array.from({ length: 25 }, () => h.request('POST', '/Person', { token: admin, body: { n: 'Race Person', m: nextMobile(), r: id } }));
    const deletes = Array.from({ length: 25 }, () => h.request('DELETE', `/role/${id}`, { token: admin }));
    const [c, d] = await Promise.all([Promise.all(creates), Promise.all(deletes)]);
    const all = [...c, ...d].map((r) => r.status);
    expect(all.every((s) => s < 500)).toBe(true);
    const created = c.filter((r) => r.status === 201).length;
    const deleted = d.filter((r) => r.status === 200).length;
    const holders = (await h.deps.db.select().from(person).where(eq(person.roleId, id))).length;
    // Exactly one side won: either the role went before anyone got it, or it stayed with its holders.
    if (deleted === 1) {
      expect(created).toBe(0);
      expect(await first(h.deps.db.select().from(role).where(eq(role.id, id)))).toBeUndefined();
    } else {
      expect(deleted).toBe(0);
      expect(created).toBeGreaterThan(0);
    }
    expect(holders).toBe(created);
    // The refused deletes were 404 (already gone) or 409 (in use); the refused creates, 400 'Role not found'.
    expect(d.filter((r) => r.status !== 200).every((r) => r.status === 404 || r.status === 409)).toBe(true);
    expect(c.filter((r) => r.status !== 201).every((r) => r.status === 400 && r.body.msg === 'Role not found')).toBe(true);
  });
});

describe('permissions: create, rename and delete cannot be used to escalate', () => {
  let h: Harness;
  let admin: string;
  beforeAll(async () => {
    h = await startHarness();
    admin = await h.tokenOf('admin');
  });
  afterAll(() => h.destroy());

  test('the spec’s built-in permissions cannot be renamed or deleted', async () => {
    const keeper = await makePerson(h, admin, { permissions: ['UPDATE_PERMISSION', 'DELETE_PERMISSION', ...ALL.filter((p) => p.startsWith('VIEW'))] });
    const row = (await first(h.deps.db.select().from(permission).where(eq(permission.permission, 'VIEW_REPORT'))))!;
    const rename = await h.request('PUT', '/permission', { token: keeper.token, body: { id: row.id, permission: 'REPORT_VIEWER' } });
    expect(rename.status).toBe(409);
    expect(rename.body.msg).toBe(MSG.permissionBuiltIn);
    const del = await h.request('DELETE', `/permission/${row.id}`, { token: keeper.token });
    expect(del.status).toBe(409);
    expect((await first(h.deps.db.select().from(permission).where(eq(permission.id, row.id))))?.permission).toBe('VIEW_REPORT');
  });

  test('a permission is renamed or deleted only by someone who holds it', async () => {
    const made = await h.request('POST', '/permission', { token: admin, body: { permission: 'AUDIT_EXPORT' } });
    expect(made.status).toBe(201);
    // The creator holds it, so it can be granted at all.
    expect(await permsInDb(h, DEMO.admin.id)).toContain('AUDIT_EXPORT');
    const id = made.body.data.id as string;
    expect((await h.request('PATCH', '/Person/updatePermissionCollection', { token: admin, body: { id: DEMO.learner.id, permissions: ['AUDIT_EXPORT'] } })).status).toBe(200);

    const keeper = await makePerson(h, admin, { permissions: ['UPDATE_PERMISSION', 'DELETE_PERMISSION'] });
    const rename = await h.request('PUT', '/permission', { token: keeper.token, body: { id, permission: 'AUDIT_EVERYTHING' } });
    expect(rename.status).toBe(403);
    expect(rename.body.msg).toBe(MSG.permissionNotHeld);
    const del = await h.request('DELETE', `/permission/${id}`, { token: keeper.token });
    expect(del.status).toBe(403);
    expect(await permsInDb(h, DEMO.learner.id)).toEqual(['AUDIT_EXPORT']);
    // Its description grants nothing and stays editable.
    const desc = await h.request('PUT', '/permission', { token: keeper.token, body: { id, permission: 'AUDIT_EXPORT', description: 'Export the audit trail' } });
    expect(desc.status).toBe(200);
  });

  test('no permission is created or renamed into a name the server honours, even one missing from the database', async () => {
    const creator = await makePerson(h, admin, { permissions: ['CREATE_PERMISSION', 'UPDATE_PERMISSION'] });
    const mine = await h.request('POST', '/permission', { token: creator.token, body: { permission: 'MY_TOOL' } });
    expect(mine.status).toBe(201);
    expect(await permsInDb(h, creator.id)).toContain('MY_TOOL');
    const taken = await h.request('PUT', '/permission', { token: creator.token, body: { id: mine.body.data.id, permission: 'VIEW_REPORT' } });
    expect(taken.status).toBe(409);

    // A database where VIEW_REPORT is missing (older data): its name still cannot be made, by creation or by rename.
    await h.deps.db.delete(permission).where(eq(permission.permission, 'VIEW_REPORT'));
    const create = await h.request('POST', '/permission', { token: creator.token, body: { permission: 'view_report' } });
    expect(create.status).toBe(409);
    expect(create.body.msg).toBe(MSG.permissionBuiltIn);
    const rename = await h.request('PUT', '/permission', { token: creator.token, body: { id: mine.body.data.id, permission: 'VIEW_REPORT' } });
    expect(rename.status).toBe(409);
    expect(rename.body.msg).toBe(MSG.permissionBuiltIn);
    expect(await permsInDb(h, creator.id)).not.toContain('VIEW_REPORT');
    expect((await h.request('GET', '/report/globalEarnings', { token: creator.token })).status).toBe(403);
  });
});

/** Two admins and nobody else: the demo admin hands over and is demoted. */
async function twoAdmins(h: Harness): Promise<[Person, Person]> {
  const demo = await h.tokenOf('admin');
  const a = await makePerson(h, demo, { r: 'ADMIN' });
  const b = await makePerson(h, demo, { r: 'ADMIN' });
  expect((await h.request('PUT', '/Person', { token: a.token, body: { id: DEMO.admin.id, r: 'MEMBER' } })).status).toBe(200);
  // Both tokens are checked once here: checked signatures are cached, so in the bursts below every
  // request passes the access check at once and the race is decided where it must be, in the write.
  expect((await h.request('GET', '/Person', { token: b.token })).status).toBe(200);
  return [a, b];
}

const activeAdmins = async (h: Harness) => {
  const adminRole = await roleId(h, 'ADMIN');
  return (await h.deps.db.select().from(person).where(eq(person.roleId, adminRole))).filter((p) => p.status === 'ACTIVE').map((p) => p.id);
};

describe('parallel: two admins turning on each other never leave zero admins', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.destroy());

  test('two admins demoting each other at once: exactly one side gets through, one admin remains', async () => {
    const [a, b] = await twoAdmins(h);
    const requests = Array.from({ length: 50 }, (_, i) => {
      const [actor, target] = i % 2 ? [a, b] : [b, a];
      return h.request('PUT', '/Person', { token: actor.token, body: { id: target.id, r: 'MEMBER' } }).then((r) => ({ actor: actor.id, status: r.status }));
    });
    const results = await Promise.all(requests);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(25);
    expect(new Set(ok.map((r) => r.actor)).size).toBe(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 403)).toBe(true);
    expect(await activeAdmins(h)).toEqual([ok[0]!.actor]);
  });

  test('two admins blocking each other at once: exactly one side gets through, one active admin remains', async () => {
    const [a, b] = await twoAdmins(h);
    const requests = Array.from({ length: 50 }, (_, i) => {
      const [actor, target] = i % 2 ? [a, b] : [b, a];
      return h.request('PUT', '/Person', { token: actor.token, body: { id: target.id, s: 'BLOCKED' } }).then((r) => ({ actor: actor.id, status: r.status }));
    });
    const results = await Promise.all(requests);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(25);
    expect(new Set(ok.map((r) => r.actor)).size).toBe(1);
    expect(await activeAdmins(h)).toEqual([ok[0]!.actor]);
  });

  test('an admin demoted while fifty of their requests are in flight gets none of them through', async () => {
    const [a, b] = await twoAdmins(h);
    // All fifty pass the access check at once (see twoAdmins), then hash a password before
    // writing: the write must look again.
    const fromB = Array.from({ length: 50 }, (_, i) =>
      h.request('POST', '/Person', { token: b.token, body: { n: `Crony ${i}`, m: nextMobile(), password: PASSWORD, r: 'ADMIN' } }),
    );
    const demote = h.request('PUT', '/Person', { token: a.token, body: { id: b.id, r: 'MEMBER' } });
    const [results, demoted] = await Promise.all([Promise.all(fromB), demote]);
    expect(demoted.status).toBe(200);
    expect(tally(results.map((r) => r.status))).toEqual({ 403: 50 });
    expect((await h.deps.db.select().from(person)).filter((p) => p.name.startsWith('Crony'))).toEqual([]);
    expect(await activeAdmins(h)).toEqual([a.id]);
  });

  test('an admin demoted while fifty password resets are in flight resets nothing', async () => {
    const [a, b] = await twoAdmins(h);
    const resets = Array.from({ length: 50 }, (_, i) =>
      h.request('PUT', '/UserLogin/resetUserPasswordByAdmin', { token: b.token, body: { personId: DEMO.learner.id, password: `Taken-Over-${i}x` } }),
    );
    const demote = h.request('PUT', '/Person', { token: a.token, body: { id: b.id, r: 'MEMBER' } });
    const [results, demoted] = await Promise.all([Promise.all(resets), demote]);
    expect(demoted.status).toBe(200);
    expect(tally(results.map((r) => r.status))).toEqual({ 403: 50 });
    expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(200);
  });

  test('two admins deleting each other at once: exactly one is deleted, one admin remains', async () => {
    const [a, b] = await twoAdmins(h);
    const requests = Array.from({ length: 50 }, (_, i) => {
      const [actor, target] = i % 2 ? [a, b] : [b, a];
      return h.request('DELETE', `/Person/${target.id}`, { token: actor.token }).then((r) => ({ actor: actor.id, status: r.status }));
    });
    const results = await Promise.all(requests);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    // The winner's other deletes find nobody (404); the loser no longer exists to act (401 or 403).
    expect(await activeAdmins(h)).toEqual([ok[0]!.actor]);
    expect(results.filter((r) => r.status !== 200).every((r) => [401, 403, 404].includes(r.status))).toBe(true);
  });
});
