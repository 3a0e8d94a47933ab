import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import {
  customerQuerySchema,
  personCreateSchema,
  personPermissionsSchema,
  personSearchSchema,
  personUpdateSchema,
  referrerLookupSchema,
  teamQuerySchema,
} from '@pm/protocol/person';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as persons from './persons.service';

const noQuery = z.strictObject({});

export function personRoutes(app: Hono<AppEnv>, deps: Deps) {
  // Static paths first: Hono matches in registration order, and /Person/:id would catch them.
  route(app, deps, 'GET /Person', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await persons.me(deps, principalOf(c)));
  });
  route(app, deps, 'GET /person/team', async (c) => c.json(await persons.myTeam(deps, principalOf(c), parseQuery(c, teamQuerySchema))));
  route(app, deps, 'GET /Person/get', async (c) => c.json(await persons.search(deps, parseQuery(c, personSearchSchema))));
  route(app, deps, 'GET /Person/getReferrer', async (c) => {
    await deps.rates.consume('lookupIp', clientIp(c, deps.config.TRUST_PROXY));
    return c.json(await persons.referrer(deps, parseQuery(c, referrerLookupSchema).strQuery));
  });
  route(app, deps, 'GET /Person/queryCustomers', async (c) => c.json(await persons.queryCustomers(deps, parseQuery(c, customerQuerySchema))));
  route(app, deps, 'GET /Person/getTotalCustomers', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await persons.totalCustomers(deps));
  });
  route(app, deps, 'GET /Person/:id', async (c) => c.json(await persons.getOne(deps, parseWith(idSchema, c.req.param('id')))));
  route(app, deps, 'POST /Person', async (c) =>
    c.json(await persons.create(deps, principalOf(c), await parseJson(c, personCreateSchema)), 201),
  );
  route(app, deps, 'PUT /Person', async (c) =>
    c.json(await persons.update(deps, principalOf(c), await parseJson(c, personUpdateSchema))),
  );
  route(app, deps, 'PATCH /Person/updatePermissionCollection', async (c) =>
    c.json(await persons.setPermissions(deps, principalOf(c), await parseJson(c, personPermissionsSchema))),
  );
  route(app, deps, 'DELETE /Person/:id', async (c) => c.json(await persons.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
