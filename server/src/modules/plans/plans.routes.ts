import { asc, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv, Deps } from '../../context';
import { plan } from '../../db/schema';
import { parseQuery } from '../../lib/http';
import { route } from '../../lib/route';

/** The active plans (docs/payments.md "What a plan gives") in the plan page's order: GET /plan's answer, also drawn into `/plan` (lib/rendered-pages). */
export async function activePlans(db: Deps['db']) {
  const data = await db
    .select({ id: plan.id, code: plan.code, name: plan.name, total: plan.total, approx: plan.approx, contents: plan.contents })
    .from(plan)
    .where(eq(plan.active, true))
    .orderBy(asc(plan.sortOrder));
  return { success: true as const, data };
}

/** GET /plan — the active plans (docs/payments.md), cheapest last as on the plan page. */
export function planRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /plan', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await activePlans(deps.db));
  });
}
