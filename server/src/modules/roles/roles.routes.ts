import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import { roleCreateSchema, rolePermissionsSchema, roleUpdateSchema } from '@pm/protocol/role';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as roles from './roles.service';

export function roleRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /role', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await roles.list(deps));
  });
  route(app, deps, 'POST /role', async (c) => c.json(await roles.create(deps, principalOf(c), await parseJson(c, roleCreateSchema)), 201));
  route(app, deps, 'PUT /role/updatePermissionCollection', async (c) =>
    c.json(await roles.setPermissions(deps, principalOf(c), await parseJson(c, rolePermissionsSchema))),
  );
  route(app, deps, 'PUT /role', async (c) => c.json(await roles.update(deps, principalOf(c), await parseJson(c, roleUpdateSchema))));
  route(app, deps, 'DELETE /role/:id', async (c) => c.json(await roles.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
