import { asc, eq } from 'drizzle-orm';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps, Principal } from '../../context';
import { brand } from '../../db/schema';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';

type BrandInput = { name: string; description: string; logo?: string | null | undefined };

export function list(deps: Deps) {
  return { success: true as const, data: deps.db.select().from(brand).orderBy(asc(brand.name)).all() };
}

function assertFree(deps: Deps, name: string, exceptId?: string) {
  const other = deps.db.select().from(brand).where(eq(brand.name, name)).get();
  if (other && other.id !== exceptId) throw conflict(MSG.brandExists);
}

export function create(deps: Deps, actor: Principal, input: BrandInput) {
  assertFree(deps, input.name);
  const data = deps.db.transaction((tx) => {
    const row = tx.insert(brand).values({ ...input, logo: input.logo ?? null, updatedAt: Date.now() }).returning().get();
    logActivity(tx, { actor, action: 'CREATE', entity: 'brand', entityId: row.id, newValue: row });
    return row;
  });
  return { success: true as const, msg: MSG.brandCreated, data };
}

export function update(deps: Deps, actor: Principal, input: BrandInput & { id: string }) {
  const before = deps.db.select().from(brand).where(eq(brand.id, input.id)).get();
  if (!before) throw notFound('Brand not found');
  assertFree(deps, input.name, input.id);
  const data = deps.db.transaction((tx) => {
    const row = tx
      .update(brand)
      .set({ name: input.name, description: input.description, logo: input.logo ?? null, updatedAt: Date.now() })
      .where(eq(brand.id, input.id))
      .returning()
      .get();
    logActivity(tx, { actor, action: 'UPDATE', entity: 'brand', entityId: row.id, oldValue: before, newValue: row });
    return row;
  });
  return { success: true as const, msg: MSG.brandUpdated, data };
}

export function remove(deps: Deps, actor: Principal, id: string) {
  const before = deps.db.select().from(brand).where(eq(brand.id, id)).get();
  if (!before) throw notFound('Brand not found');
  deps.db.transaction((tx) => {
    tx.delete(brand).where(eq(brand.id, id)).run();
    logActivity(tx, { actor, action: 'DELETE', entity: 'brand', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.brandDeleted };
}
