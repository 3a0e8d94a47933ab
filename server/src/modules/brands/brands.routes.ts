import type { Hono } from 'hono';
import { z } from 'zod';
import { brandCreateSchema, brandUpdateSchema } from '@pm/protocol/brand';
import { idSchema } from '@pm/protocol/common';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as brands from './brands.service';

export function brandRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /brand', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await brands.list(deps));
  });
  route(app, deps, 'POST /brand', async (c) => c.json(await brands.create(deps, principalOf(c), await parseJson(c, brandCreateSchema)), 201));
  route(app, deps, 'PUT /brand', async (c) => c.json(await brands.update(deps, principalOf(c), await parseJson(c, brandUpdateSchema))));
  route(app, deps, 'DELETE /brand/:id', async (c) => c.json(await brands.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
