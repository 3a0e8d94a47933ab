import type { Hono } from 'hono';
import { z } from 'zod';
import { bannerCreateSchema, bannerUpdateSchema } from '@pm/protocol/banner';
import { idSchema } from '@pm/protocol/common';
import { staticPageKeySchema, staticPageRestoreSchema, staticPageSaveSchema, staticPageVersionsQuerySchema } from '@pm/protocol/static-page';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as content from './content.service';

const noQuery = z.strictObject({});

/** Static pages, home banners and contact messages: what the back office edits for the public site (docs/admin.md). */
export function contentRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /static-page', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await content.listPages(deps));
  });
  route(app, deps, 'PUT /static-page', async (c) => c.json(await content.savePage(deps, principalOf(c), await parseJson(c, staticPageSaveSchema))));
  route(app, deps, 'POST /static-page/restore', async (c) => c.json(await content.restorePage(deps, principalOf(c), await parseJson(c, staticPageRestoreSchema))));
  route(app, deps, 'GET /static-page/:key/versions', async (c) => {
    const { lang } = parseQuery(c, staticPageVersionsQuerySchema);
    return c.json(await content.listPageVersions(deps, parseWith(staticPageKeySchema, c.req.param('key'), 'key'), lang));
  });
  route(app, deps, 'GET /static-page/:key', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await content.getPage(deps, parseWith(staticPageKeySchema, c.req.param('key'))));
  });
  route(app, deps, 'GET /banner/all', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await content.listBanners(deps, true));
  });
  route(app, deps, 'GET /banner', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await content.listBanners(deps, false));
  });
  route(app, deps, 'POST /banner', async (c) => c.json(await content.createBanner(deps, principalOf(c), await parseJson(c, bannerCreateSchema)), 201));
  route(app, deps, 'PUT /banner', async (c) => c.json(await content.updateBanner(deps, principalOf(c), await parseJson(c, bannerUpdateSchema))));
  route(app, deps, 'DELETE /banner/:id', async (c) => c.json(await content.deleteBanner(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
