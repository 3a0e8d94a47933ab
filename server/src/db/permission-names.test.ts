import { eq } from 'drizzle-orm';
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
