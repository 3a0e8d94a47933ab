import type { Hono } from 'hono';
import { recentTagsQuerySchema, tagPatchSchema, tagQuerySchema } from '@pm/protocol/tag';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as tags from './tags.service';

export function tagRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /tag/getRecentlyUpdatedTags', async (c) =>
    c.json(await tags.recent(deps, parseQuery(c, recentTagsQuerySchema).lastTimestamp)),
  );
  route(app, deps, 'GET /tag', async (c) =>
    c.body(await tags.listJson(deps, parseQuery(c, tagQuerySchema).key), 200, { 'content-type': 'application/json' }),
  );
  route(app, deps, 'PATCH /tag', async (c) => c.json(await tags.patch(deps, principalOf(c), await parseJson(c, tagPatchSchema))));
}
