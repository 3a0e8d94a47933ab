import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PERMISSIONS } from '@pm/protocol/permission';
import { DEMO, type Harness, startHarness } from '../test/harness';
import type { DB } from './client';
import { tableNames } from './dialect';
import { first, row } from './transaction';
import { hashPassword } from '../lib/passwords';
import { findDemoLogins, seedDatabase } from './seed';
import {
  meta,
  permission,
  person,
  personPermission,
  plan,
  question,
  questionSet,
  revisionCounter,
  role,
  rolePermission,
  tag,
} from './schema';

/** Row count of every table of the database (read from the engine's catalogue, so new tables count too). */
async function tableCounts(db: DB): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of await tableNames(db)) counts[name] = (await row<{ n: number }>(db, sql`select count(*) as n from ${sql.identifier(name)}`))?.n ?? -1;
  return counts;
}

async function revisionValue(db: DB): Promise<number> {
  return (await first(db.select().from(revisionCounter)))?.value ?? -1;
}

async function permissionsOfPerson(db: DB, personId: string): Promise<string[]> {
  return (await db
    .select({ p: permission.permission })
    .from(personPermission)
    .innerJoin(permission, eq(permission.id, personPermission.permissionId))
    .where(eq(personPermission.personId, personId))
    )
    .map((r) => r.p)
    .sort();
}

async function permissionsOfRole(db: DB, roleName: string): Promise<string[]> {
  return (await db
    .select({ p: permission.permission })
    .from(rolePermission)
    .innerJoin(role, eq(role.id, rolePermission.roleId))
    .innerJoin(permission, eq(permission.id, rolePermission.permissionId))
    .where(eq(role.name, roleName))
    )
    .map((r) => r.p)
    .sort();
}

describe('idempotence and persistence', () => {
  test('seeding twice changes nothing: the second run returns {seeded:false} and every count stays', async () => {
    const h = await startHarness({ seed: false });
    try {
      expect((await tableCounts(h.deps.db)).person).toBe(0);
      expect(await seedDatabase(h.deps.db)).toEqual({ seeded: true });
      const counts = (await tableCounts(h.deps.db));
      const rev = (await revisionValue(h.deps.db));
      // The seed filled the tables it owns.
      for (const t of ['permission', 'role', 'role_permission', 'person', 'person_permission', 'plan', 'tag', 'question', 'question_set', 'meta']) {
        expect(counts[t], t).toBeGreaterThan(0);
      }

      expect(await seedDatabase(h.deps.db)).toEqual({ seeded: false });
      expect((await tableCounts(h.deps.db))).toEqual(counts);
      expect((await revisionValue(h.deps.db))).toBe(rev);
    } finally {
      h.destroy();
    }
  });

  test('a seed re-run after its marker is lost keeps existing rows and data', async () => {
    const h = await startHarness();
    try {
      // The learner changes the password; a re-run of the seed must not put the demo one back.
      const token = await h.tokenOf('learner');
      const changed = await h.request('PATCH', '/UserLogin/updatePasswordWithOldPassword', {
        token,
        body: { oldPassword: DEMO.learner.password, newPassword: 'my-own-pass' },
      });
      expect(changed.status).toBe(200);
      const counts = (await tableCounts(h.deps.db));

      // Only the seed's marker: other keys in meta belong to other parts of the server.
      await h.deps.db.delete(meta).where(eq(meta.key, 'seeded_at'));
      expect(await seedDatabase(h.deps.db)).toEqual({ seeded: true });
      expect((await tableCounts(h.deps.db))).toEqual(counts);
      expect((await h.login(DEMO.learner.username, 'my-own-pass')).status).toBe(200);
      expect((await h.login(DEMO.learner.username, DEMO.learner.password)).status).toBe(401);
    } finally {
      h.destroy();
    }
  });

  test('data survives a restart: a new person still logs in, sessions survive, counts are unchanged', async () => {
    const h1 = await startHarness();
    const dataDir = h1.dataDir;
    let h2: Harness | undefined;
    try {
      const signup = await h1.request('POST', '/UserLogin', {
        body: { n: 'Persistent Person', m: '9012345678', e: 'persist@example.com', password: 'persist1', p: 'demo-learner', terms: true },
      });
      expect(signup.status).toBe(201);
      const before = (await tableCounts(h1.deps.db));
      const rev = (await revisionValue(h1.deps.db));
      await h1.close();

      h2 = await startHarness({ dataDir, seed: false });
      expect(await seedDatabase(h2.deps.db)).toEqual({ seeded: false });
      expect((await tableCounts(h2.deps.db))).toEqual(before);
      expect((await revisionValue(h2.deps.db))).toBe(rev);

      const row = (await first(h2.deps.db.select().from(person).where(eq(person.id, signup.body.id))));
      expect(row).toMatchObject({ name: 'Persistent Person', mobile: '+919012345678', parentId: 'demo-learner' });

      const login = await h2.login('9012345678', 'persist1');
      expect(login.status).toBe(200);
      expect(login.body.id).toBe(signup.body.id);
      // The JWT secret is kept in the data directory, so a token from before the restart still works.
      const me = await h2.request('GET', '/Person', { token: signup.body.token });
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(signup.body.id);
    } finally {
      await h1.close();
      if (h2) await h2.destroy();
      else await h1.destroy();
    }
  });
});

describe('fixtures content', () => {
  let h: Harness;
  let db: DB;
  beforeAll(async () => {
    h = await startHarness();
    db = h.deps.db;
  });
  afterAll(() => h.destroy());

  test('at least 60 questions covering mcq1, mcq2, f and s, each with a Hindi translation', async () => {
    const rows = (await db.select().from(question));
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const types = new Set(rows.map((q) => q.qt));
    for (const qt of ['mcq1', 'mcq2', 'f', 's']) expect(types.has(qt), qt).toBe(true);
    for (const q of rows) {
      const hi = q.trans.hi;
      expect(hi, q.id).toBeDefined();
      expect(hi?.q.trim().length, q.id).toBeGreaterThan(0);
      expect(hi?.ca.length, q.id).toBeGreaterThan(0);
      // MCQ translations translate every option; other types have none.
      expect(Object.keys(hi?.ops ?? {}).sort(), q.id).toEqual(Object.keys(q.ops).sort());
      expect(q.ca.length, q.id).toBeGreaterThan(0);
      if (q.qt === 'mcq1') expect(q.ca, q.id).toHaveLength(1);
      if (q.qt === 'mcq1' || q.qt === 'mcq2') for (const a of q.ca) expect(Object.keys(q.ops), q.id).toContain(a);
    }
  });

  test('at least 4 question sets: one published in the future, one with sub-sections, one multi-section with negative marking', async () => {
    const sets = (await db.select().from(questionSet));
    expect(sets.length).toBeGreaterThanOrEqual(4);
    const nowMinutes = Date.now() / 60_000;
    expect(sets.some((s) => s.pts > nowMinutes)).toBe(true);
    expect(sets.some((s) => s.pts <= nowMinutes)).toBe(true);
    expect(sets.some((s) => Object.values(s.sections).some((sec) => sec.ss))).toBe(true);
    expect(sets.some((s) => s.isM && Object.keys(s.sections).length === 3 && s.nm > 0)).toBe(true);

    // Every question a set names exists.
    const ids = new Set((await db.select({ id: question.id }).from(question)).map((q) => q.id));
    for (const s of sets) {
      const named = [
        ...s.q,
        ...Object.values(s.sections).flatMap((sec) => [...sec.q, ...Object.values(sec.sub ?? {}).flatMap((x) => x.q)]),
      ];
      for (const id of named) expect(ids.has(id), `${s.id} → ${id}`).toBe(true);
    }
  });

  test('the three plans of spec §9 with their totals', async () => {
    const rows = (await db.select({ code: plan.code, total: plan.total, name: plan.name }).from(plan));
    expect(Object.fromEntries(rows.map((p) => [p.code, p.total]))).toEqual({
      ANNUAL_PLAN: 720,
      QUATERLY_MONTH_PLAN: 270,
      ONE_MONTH_PLAN: 150,
    });
    for (const p of rows) {
      expect(p.name.en.length).toBeGreaterThan(0);
      expect(p.name.hi.length).toBeGreaterThan(0);
    }
  });

  test('every permission of sync-protocol PERMISSIONS exists', async () => {
    const names = new Set((await db.select().from(permission)).map((p) => p.permission));
    for (const p of Object.keys(PERMISSIONS)) expect(names.has(p), p).toBe(true);
  });

  test('the roles ADMIN, QUESTION_EDITOR, MEMBER, DONOR, BENEFICIARY, TRUST, TRUSTEE exist', async () => {
    const names = (await db.select().from(role)).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(['ADMIN', 'QUESTION_EDITOR', 'MEMBER', 'DONOR', 'BENEFICIARY', 'TRUST', 'TRUSTEE']),
    );
  });

  test('the ADMIN role and the admin hold every permission', async () => {
    const all = (await db.select().from(permission)).map((p) => p.permission).sort();
    expect((await permissionsOfRole(db, 'ADMIN'))).toEqual(all);
    expect((await permissionsOfPerson(db, 'demo-admin'))).toEqual(all);
  });

  test('the editor has the QUESTION_EDITOR role and permission; the learner is a MEMBER', async () => {
    const roleName = async (id: string) =>
      (await first(db.select({ name: role.name }).from(person).innerJoin(role, eq(role.id, person.roleId)).where(eq(person.id, id))))?.name;
    expect(await roleName('demo-editor')).toBe('QUESTION_EDITOR');
    expect((await permissionsOfPerson(db, 'demo-editor'))).toContain('QUESTION_EDITOR');
    expect(await roleName('demo-learner')).toBe('MEMBER');
    expect(await roleName('demo-admin')).toBe('ADMIN');
    expect((await permissionsOfPerson(db, 'demo-learner'))).toEqual((await permissionsOfRole(db, 'MEMBER')));
  });

  test('demo accounts: mobiles stored with +91, passwords stored only as argon2id hashes, referral tree', async () => {
    const rows = (await db.select().from(person));
    for (const who of Object.values(DEMO)) {
      const row = rows.find((r) => r.id === who.id);
      expect(row?.mobile).toBe(`+91${who.mobile}`);
      expect(row?.email).toBe(who.username);
      expect(row?.passwordHash.startsWith('$argon2id$')).toBe(true);
      expect(row?.passwordHash).not.toContain(who.password);
    }
    expect(rows.find((r) => r.id === 'demo-admin')?.parentId).toBeNull();
    expect(rows.find((r) => r.id === 'demo-learner')?.parentId).toBe('demo-admin');
  });

  test('tags exist in all four groups c, s, t, e, each with an English and a Hindi name', async () => {
    const rows = (await db.select().from(tag));
    const groups = new Set(rows.map((t) => t.key));
    for (const k of ['c', 's', 't', 'e']) expect(groups.has(k), k).toBe(true);
    for (const t of rows) {
      expect(t.tags.en?.trim().length, t.tid).toBeGreaterThan(0);
      expect(t.tags.hi?.trim().length, t.tid).toBeGreaterThan(0);
    }
    // Questions name only tags of the right group.
    const byTid = new Map(rows.map((t) => [t.tid, t.key]));
    for (const q of (await db.select().from(question))) {
      for (const tid of q.c) expect(byTid.get(tid), `${q.id} c ${tid}`).toBe('c');
      for (const tid of q.t) expect(byTid.get(tid), `${q.id} t ${tid}`).toBe('t');
      for (const tid of q.e) expect(byTid.get(tid), `${q.id} e ${tid}`).toBe('e');
      if (q.s) expect(byTid.get(q.s), `${q.id} s ${q.s}`).toBe('s');
    }
  });

  test('every replicated row (tag, question, question_set) has a distinct positive revision', async () => {
    const revs = [
      ...(await db.select({ rev: tag.rev }).from(tag)),
      ...(await db.select({ rev: question.rev }).from(question)),
      ...(await db.select({ rev: questionSet.rev }).from(questionSet)),
    ].map((r) => r.rev);
    for (const rev of revs) {
      expect(Number.isInteger(rev)).toBe(true);
      expect(rev).toBeGreaterThan(0);
    }
    expect(new Set(revs).size).toBe(revs.length);
    // The counter has handed out at least every revision in use, so the next write gets a new one.
    expect((await revisionValue(db))).toBeGreaterThanOrEqual(Math.max(...revs));
  });
});

describe('production seed and demo passwords (issue 16)', () => {
  test('a production seed puts in the reference data (permissions, roles, plans, tags) and no person, question, set or sale; a later demo seed adds nothing', async () => {
    const h = await startHarness({ seed: false });
    try {
      expect(await seedDatabase(h.deps.db, { demo: false })).toEqual({ seeded: true });
      const counts = (await tableCounts(h.deps.db));
      for (const t of ['permission', 'role', 'role_permission', 'plan', 'tag']) expect(counts[t], t).toBeGreaterThan(0);
      for (const t of ['person', 'person_permission', 'question', 'question_set', 'purchase_order', 'payment', 'trust', 'campaign']) expect(counts[t], t).toBe(0);
      expect((await permissionsOfRole(h.deps.db, 'ADMIN'))).toEqual((await h.deps.db.select().from(permission)).map((p) => p.permission).sort());
      expect((await first(h.deps.db.select().from(meta).where(eq(meta.key, 'seed_kind'))))?.value).toBe('reference');

      // A start without NODE_ENV=production on the same database does not bring the demo in.
      expect(await seedDatabase(h.deps.db)).toEqual({ seeded: false });
      expect((await tableCounts(h.deps.db))).toEqual(counts);
      expect(await findDemoLogins(h.deps.db)).toEqual([]);
    } finally {
      h.destroy();
    }
  });

  test('every demo account is found while its published password works, and none once their passwords are changed', async () => {
    const h = await startHarness();
    try {
      const found = await findDemoLogins(h.deps.db);
      const ids = found.map((f) => f.id).sort();
      expect(ids).toEqual(expect.arrayContaining(['demo-admin', 'demo-editor', 'demo-learner', 'demo-member-1']));
      expect(found.find((f) => f.id === 'demo-admin')).toMatchObject({ mobile: `+91${DEMO.admin.mobile}` });

      // Everyone with a new password (or gone) is no longer a demo login.
      const other = await hashPassword('a long and private passphrase');
      await h.deps.db.update(person).set({ passwordHash: other }).where(inArray(person.id, ids.filter((id) => id !== 'demo-admin')));
      expect((await findDemoLogins(h.deps.db)).map((f) => f.id)).toEqual(['demo-admin']);
      await h.deps.db.update(person).set({ passwordHash: other }).where(eq(person.id, 'demo-admin'));
      expect(await findDemoLogins(h.deps.db)).toEqual([]);
    } finally {
      h.destroy();
    }
  });

  test('a staff member (one who holds a permission) with a demo password set by hand is found, under any id and mobile', async () => {
    const h = await startHarness({ seed: false });
    try {
      await seedDatabase(h.deps.db, { demo: false });
      const adminRole = (await first(h.deps.db.select().from(role).where(eq(role.name, 'ADMIN'))));
      const anyPermission = (await first(h.deps.db.select().from(permission)));
      await h.deps.db
        .insert(person)
        .values([
          { id: 'real-admin', name: 'Real Admin', mobile: '+919812345678', roleId: adminRole?.id, passwordHash: await hashPassword(DEMO.editor.password) },
          { id: 'real-learner', name: 'Real Learner', mobile: '+919812345679', passwordHash: await hashPassword('a long and private passphrase') },
        ])
        ;
      await h.deps.db.insert(personPermission).values({ personId: 'real-admin', permissionId: anyPermission!.id });
      expect((await findDemoLogins(h.deps.db)).map((f) => f.id)).toEqual(['real-admin']);
    } finally {
      h.destroy();
    }
  });
});
