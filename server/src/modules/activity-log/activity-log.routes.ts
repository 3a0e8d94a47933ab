import type { Hono } from 'hono';
import { z } from 'zod';
import { activityLogQuerySchema } from '@pm/protocol/activity-log';
import type { AppEnv, Deps } from '../../context';
import { parseQuery } from '../../lib/http';
import { route } from '../../lib/route';
import * as log from './activity-log.service';

export function activityLogRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /getActivityLog/count', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await log.total(deps));
  });
  route(app, deps, 'GET /getActivityLog', async (c) => c.json(await log.page(deps, parseQuery(c, activityLogQuerySchema))));
}
