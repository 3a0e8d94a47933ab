import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { first } from './transaction';
import { permission, person, personPermission } from './schema';

/* person.permission_names is what authorisation reads; the triggers of migration 0002 keep it. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

const names = async (id: string) => (await first(h.deps.db.select({ n: person.permissionNames }).from(person).where(eq(person.id, id))))?.n;

test('seeded people carry their permission names, sorted', async () => {
  expect(await names('demo-editor')).toBe('QUESTION_EDITOR');
  expect(await names('demo-learner')).toBe('');
  expect((await names('demo-admin'))?.split(',')).toEqual([...((await names('demo-admin'))?.split(',') ?? [])].sort());
  expect((await names('demo-admin'))?.split(',')).toContain('UPDATE_PERSON');
});

test('grant, rename, revoke and deleting a permission all show in permission_names', async () => {
  const db = h.deps.db;
  const p = (await first(db.insert(permission).values({ permission: 'TEMP_PERM', description: 't' }).returning()))!;
  await db.insert(personPermission).values({ personId: 'demo-learner', permissionId: p.id });
  expect(await names('demo-learner')).toBe('TEMP_PERM');
  await db.update(permission).set({ permission: 'RENAMED_PERM' }).where(eq(permission.id, p.id));
  expect(await names('demo-learner')).toBe('RENAMED_PERM');
  await db.delete(permission).where(eq(permission.id, p.id));
  expect(await names('demo-learner')).toBe('');
  await db.insert(personPermission).values({ personId: 'demo-learner', permissionId: (await first(db.select().from(permission).where(eq(permission.permission, 'SHOP_EDITOR'))))!.id });
  expect(await names('demo-learner')).toBe('SHOP_EDITOR');
  await db.delete(personPermission).where(eq(personPermission.personId, 'demo-learner'));
  expect(await names('demo-learner')).toBe('');
});

test('names granted in one statement are sorted by their bytes, as SQLite sorts them, whatever the collation', async () => {
  const db = h.deps.db;
  // Byte order puts 'Z' before '_' before 'a'; a linguistic collation would not.
  const made = await db
    .insert(permission)
    .values([
      { permission: 'ZZ_ORDER_b', description: 't' },
      { permission: 'ZZ_ORDER_a', description: 't' },
      { permission: 'ZZ_ORDERZ', description: 't' },
      { permission: 'ZZ_ORDER_B', description: 't' },
    ])
    .returning();
  await db.insert(personPermission).values(made.map((p) => ({ personId: 'demo-learner', permissionId: p.id })));
  expect(await names('demo-learner')).toBe('ZZ_ORDERZ,ZZ_ORDER_B,ZZ_ORDER_a,ZZ_ORDER_b');
  await db.delete(personPermission).where(eq(personPermission.permissionId, made[0]!.id));
  expect(await names('demo-learner')).toBe('ZZ_ORDERZ,ZZ_ORDER_B,ZZ_ORDER_a');
  // Deleting the person takes their rows with it (the cascade fires the triggers on a person that is going).
  const p = (await first(db.insert(person).values({ name: 'Temp', mobile: '+919000099999', roleId: null, status: 'ACTIVE', passwordHash: 'x' }).returning()))!;
  await db.insert(personPermission).values({ personId: p.id, permissionId: made[1]!.id });
  expect(await names(p.id)).toBe('ZZ_ORDER_a');
  await db.delete(person).where(eq(person.id, p.id));
  expect(await names(p.id)).toBeUndefined();
  await db.delete(permission).where(inArray(permission.id, made.map((m) => m.id)));
  expect(await names('demo-learner')).toBe('');
});
