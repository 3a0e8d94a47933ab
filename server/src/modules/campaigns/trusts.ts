import type { Hono } from 'hono';
import { and, eq, isNotNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { trustSchema } from '@pm/protocol/campaign';
import { idSchema } from '@pm/protocol/common';
import { MSG } from '@pm/protocol/messages';
import type { AppEnv, Deps, Principal } from '../../context';
import { donation, trust } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { conflict, notFound } from '../../lib/errors';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';

/*
 * The trusts campaigns are raised under (docs/charity.md "Trusts"): what their receipts print and
 * the share they keep (never above 10 %: trustSchema). A real installation starts with none; its
 * administrator (MANAGE_TRUST) sets one up before the first campaign.
 */

type TrustInput = z.output<typeof trustSchema>;

/** GET /api/trust: every trust with its settings. */
async function listTrusts(deps: Deps) {
  return { success: true as const, data: await deps.db.select().from(trust).orderBy(trust.createdAt) };
}

/** 409 when another trust has the code. */
async function assertFreeCode(deps: Deps, code: string, exceptId: string | null) {
  const taken = await first(
    deps.db
      .select({ id: trust.id })
      .from(trust)
      .where(exceptId ? and(eq(trust.code, code), ne(trust.id, exceptId)) : eq(trust.code, code)),
  );
  if (taken) throw conflict(MSG.trustCodeTaken);
}

/** POST /api/trust */
async function createTrust(deps: Deps, p: Principal, input: TrustInput) {
  await assertFreeCode(deps, input.code, null);
  const now = Date.now();
  const row = await transaction(deps.db, async (tx) => {
    const saved = (await first(tx.insert(trust).values({ ...input, createdAt: now, updatedAt: now }).returning()))!;
    await logActivity(tx, { actor: { id: p.id, name: p.name }, action: 'CREATE', entity: 'trust', entityId: saved.id, newValue: saved });
    return saved;
  });
  return { success: true as const, msg: MSG.trustSaved, data: row };
}

/** PUT /api/trust/:id: the whole settings; the code stays once a receipt carries it. */
async function updateTrust(deps: Deps, p: Principal, id: string, input: TrustInput) {
  await assertFreeCode(deps, input.code, id);
  const row = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(trust).where(eq(trust.id, id)));
    if (!before) throw notFound(MSG.trustNotFound);
    if (before.code !== input.code) {
      const receipted = await first(tx.select({ id: donation.orderId }).from(donation).where(and(eq(donation.trustId, id), isNotNull(donation.receiptNo))).limit(1));
      if (receipted) throw conflict(MSG.trustCodeFixed);
    }
    const saved = (await first(tx.update(trust).set({ ...input, updatedAt: Date.now() }).where(eq(trust.id, id)).returning()))!;
    await logActivity(tx, { actor: { id: p.id, name: p.name }, action: 'UPDATE', entity: 'trust', entityId: id, oldValue: before, newValue: saved });
    return saved;
  });
  return { success: true as const, msg: MSG.trustSaved, data: row };
}

/** The trust routes (access.ts: MANAGE_TRUST). */
export function trustRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /trust', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await listTrusts(deps));
  });
  route(app, deps, 'POST /trust', async (c) => c.json(await createTrust(deps, principalOf(c), await parseJson(c, trustSchema)), 201));
  route(app, deps, 'PUT /trust/:id', async (c) => c.json(await updateTrust(deps, principalOf(c), parseWith(idSchema, c.req.param('id'), 'id'), await parseJson(c, trustSchema))));
}
