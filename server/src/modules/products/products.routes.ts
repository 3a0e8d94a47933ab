import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import { productCreateSchema, productUpdateSchema } from '@pm/protocol/plan';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as products from './products.service';

/** The admin's products: the plans learners buy (docs/admin.md). */
export function productRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /product', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await products.list(deps));
  });
  route(app, deps, 'POST /product', async (c) => c.json(await products.create(deps, principalOf(c), await parseJson(c, productCreateSchema)), 201));
  route(app, deps, 'PUT /product', async (c) => c.json(await products.update(deps, principalOf(c), await parseJson(c, productUpdateSchema))));
  route(app, deps, 'DELETE /product/:id', async (c) => c.json(await products.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
