import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import { permissionCreateSchema, permissionUpdateSchema } from '@pm/protocol/permission';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as permissions from './permissions.service';

export function permissionRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /permission', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await permissions.list(deps));
  });
  route(app, deps, 'POST /permission', async (c) =>
    c.json(await permissions.create(deps, principalOf(c), await parseJson(c, permissionCreateSchema)), 201),
  );
  route(app, deps, 'PUT /permission', async (c) =>
    c.json(await permissions.update(deps, principalOf(c), await parseJson(c, permissionUpdateSchema))),
  );
  route(app, deps, 'DELETE /permission/:id', async (c) =>
    c.json(await permissions.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))),
  );
}
