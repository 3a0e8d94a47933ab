import type { Context, Hono } from 'hono';
import { z } from 'zod';
import {
  CAMPAIGN_IMAGE_MAX_BYTES,
  campaignCreateSchema,
  campaignEditSchema,
  campaignFeaturedSchema,
  campaignListQuerySchema,
  campaignMoveSchema,
  campaignRefuseSchema,
  campaignUpdatePostSchema,
} from '@pm/protocol/campaign';
import { idSchema } from '@pm/protocol/common';
import type { AppEnv, Deps } from '../../context';
import type { RouteKey } from '../../access';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { readCapped } from '../media/media.routes';
import { addCampaignImage, campaignImageTooLarge, postCampaignUpdate } from './campaign-media';
import * as campaigns from './campaigns.service';

/** Where images are uploaded; app.ts leaves these bodies to the route (their own 5 MB limit and message). */
export const CAMPAIGN_IMAGE_PATH = /^\/api\/campaign\/[^/]+\/images$/;

const noQuery = z.strictObject({});
const idOf = (c: Context<AppEnv>) => parseWith(idSchema, c.req.param('id'), 'id');

/** The trustees' moves, each a route of its own with an optional note (refuse: a required reason). */
const TRUSTEE_MOVES = [
  ['POST /campaign/:id/approve', 'approve'],
  ['POST /campaign/:id/pause', 'pause'],
  ['POST /campaign/:id/resume', 'resume'],
  ['POST /campaign/:id/close', 'close'],
] as const satisfies readonly (readonly [RouteKey, string])[];

/** Campaigns (docs/charity.md "API"); who may call each is in access.ts, which campaign in campaign-access.ts. */
export function campaignRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /campaigns', async (c) => c.json(await campaigns.listCampaigns(deps, parseQuery(c, campaignListQuerySchema))));
  route(app, deps, 'GET /campaigns/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await campaigns.getCampaign(deps, c.get('principal'), idOf(c)));
  });
  route(app, deps, 'GET /campaign/mine', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await campaigns.myCampaigns(deps, principalOf(c)));
  });
  route(app, deps, 'GET /campaign/queue', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await campaigns.approvalQueue(deps));
  });
  route(app, deps, 'GET /campaign/featured', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await campaigns.featuredCampaign(deps));
  });
  route(app, deps, 'PUT /campaign/featured', async (c) => {
    const { id } = await parseJson(c, campaignFeaturedSchema);
    return c.json(await campaigns.setFeaturedCampaign(deps, principalOf(c), id));
  });
  route(app, deps, 'POST /campaign', async (c) => c.json(await campaigns.createCampaign(deps, principalOf(c), await parseJson(c, campaignCreateSchema)), 201));
  route(app, deps, 'PATCH /campaign/:id', async (c) => {
    const id = idOf(c);
    return c.json(await campaigns.editCampaign(deps, principalOf(c), id, await parseJson(c, campaignEditSchema)));
  });
  route(app, deps, 'POST /campaign/:id/images', async (c) => {
    const p = principalOf(c);
    const id = idOf(c);
    // A declared oversize body costs no budget; then the budget is spent before the body is read (as modules/media).
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > CAMPAIGN_IMAGE_MAX_BYTES) throw campaignImageTooLarge();
    await deps.rates.consume('campaignImagePerson', p.id);
    const bytes = await readCapped(c.req.raw, CAMPAIGN_IMAGE_MAX_BYTES, campaignImageTooLarge);
    return c.json(await addCampaignImage(deps, p, id, bytes), 201);
  });
  route(app, deps, 'POST /campaign/:id/submit', async (c) => {
    const id = idOf(c);
    const { note } = await parseJson(c, campaignMoveSchema);
    return c.json(await campaigns.moveCampaign(deps, principalOf(c), id, 'submit', note || null));
  });
  route(app, deps, 'POST /campaign/:id/refuse', async (c) => {
    const id = idOf(c);
    const { reason } = await parseJson(c, campaignRefuseSchema);
    return c.json(await campaigns.moveCampaign(deps, principalOf(c), id, 'refuse', reason));
  });
  for (const [key, move] of TRUSTEE_MOVES) {
    route(app, deps, key, async (c) => {
      const id = idOf(c);
      const { note } = await parseJson(c, campaignMoveSchema);
      return c.json(await campaigns.moveCampaign(deps, principalOf(c), id, move, note || null));
    });
  }
  route(app, deps, 'POST /campaign/:id/updates', async (c) => {
    const id = idOf(c);
    return c.json(await postCampaignUpdate(deps, principalOf(c), id, await parseJson(c, campaignUpdatePostSchema)), 201);
  });
}
