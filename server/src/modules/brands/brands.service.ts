import { asc, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { brand } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';

type BrandInput = { name: string; description: string; logo?: string | null | undefined };

export async function list(deps: Deps) {
  return { success: true as const, data: await deps.db.select().from(brand).orderBy(asc(brand.name)) };
}

async function assertFree(deps: Deps, name: string, exceptId?: string) {
  const other = await first(deps.db.select().from(brand).where(eq(brand.name, name)).limit(1));
  if (other && other.id !== exceptId) throw conflict(MSG.brandExists);
}

export async function create(deps: Deps, actor: Principal, input: BrandInput) {
  await assertFree(deps, input.name);
  const data = await transaction(deps.db, async (tx) => {
    const row = (await first(tx.insert(brand).values({ ...input, logo: input.logo ?? null, updatedAt: Date.now() }).returning()))!;
    await logActivity(tx, { actor, action: 'CREATE', entity: 'brand', entityId: row.id, newValue: row });
    return row;
  });
  return { success: true as const, msg: MSG.brandCreated, data };
}

export async function update(deps: Deps, actor: Principal, input: BrandInput & { id: string }) {
  const before = await first(deps.db.select().from(brand).where(eq(brand.id, input.id)));
  if (!before) throw notFound('Brand not found');
  await assertFree(deps, input.name, input.id);
  const data = await transaction(deps.db, async (tx) => {
    const row = (await first(
      tx
        .update(brand)
        .set({ name: input.name, description: input.description, logo: input.logo ?? null, updatedAt: Date.now() })
        .where(eq(brand.id, input.id))
        .returning(),
    ))!;
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'brand', entityId: row.id, oldValue: before, newValue: row });
    return row;
  });
  return { success: true as const, msg: MSG.brandUpdated, data };
}

export async function remove(deps: Deps, actor: Principal, id: string) {
  const before = await first(deps.db.select().from(brand).where(eq(brand.id, id)));
  if (!before) throw notFound('Brand not found');
  await transaction(deps.db, async (tx) => {
    await tx.delete(brand).where(eq(brand.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'brand', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.brandDeleted };
}
