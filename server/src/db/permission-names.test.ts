import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { permission, person, personPermission } from './schema';

/* person.permission_names is what authorisation reads; the triggers of migration 0002 keep it. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.destroy());

const names = (id: string) => h.deps.db.select({ n: person.permissionNames }).from(person).where(eq(person.id, id)).get()?.n;

test('seeded people carry their permission names, sorted', () => {
  expect(names('demo-editor')).toBe('QUESTION_EDITOR');
  expect(names('demo-learner')).toBe('');
  expect(names('demo-admin')?.split(',')).toEqual([...(names('demo-admin')?.split(',') ?? [])].sort());
  expect(names('demo-admin')?.split(',')).toContain('UPDATE_PERSON');
});

test('grant, rename, revoke and deleting a permission all show in permission_names', () => {
  const db = h.deps.db;
  const p = db.insert(permission).values({ permission: 'TEMP_PERM', description: 't' }).returning().get();
  db.insert(personPermission).values({ personId: 'demo-learner', permissionId: p.id }).run();
  expect(names('demo-learner')).toBe('TEMP_PERM');
  db.update(permission).set({ permission: 'RENAMED_PERM' }).where(eq(permission.id, p.id)).run();
  expect(names('demo-learner')).toBe('RENAMED_PERM');
  db.delete(permission).where(eq(permission.id, p.id)).run();
  expect(names('demo-learner')).toBe('');
  db.insert(personPermission).values({ personId: 'demo-learner', permissionId: db.select().from(permission).where(eq(permission.permission, 'SHOP_EDITOR')).get()!.id }).run();
  expect(names('demo-learner')).toBe('SHOP_EDITOR');
  db.delete(personPermission).where(eq(personPermission.personId, 'demo-learner')).run();
  expect(names('demo-learner')).toBe('');
});
