import type { Hono } from 'hono';
import { z } from 'zod';
import { registerLiveSchema, scheduleLiveSchema } from '@pm/protocol/live-test';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as live from './live-tests.service';

/**
 * Live tests (docs/live-tests.md, docs/api.md "Live tests"): an editor schedules, a learner lists
 * and registers. The key itself travels by replication (`live_key`, sync module), never here.
 */
export function liveTestRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'PUT /live/schedule', async (c) => c.json(await live.schedule(deps, principalOf(c), await parseJson(c, scheduleLiveSchema))));
  route(app, deps, 'GET /live/tests', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await live.list(deps, principalOf(c)));
  });
  route(app, deps, 'POST /live/register', async (c) => c.json(await live.register(deps, principalOf(c), await parseJson(c, registerLiveSchema))));
}
