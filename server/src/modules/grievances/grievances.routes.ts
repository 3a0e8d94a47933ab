import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import {
  campaignReportSchema,
  grievanceAssignSchema,
  grievanceMessageSchema,
  grievanceQueueSchema,
  grievanceRaiseSchema,
  grievanceReopenSchema,
  grievanceResolveSchema,
} from '@pm/protocol/grievance';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson, parseQuery, parseWith } from '../../lib/http';
import type { Limit } from '../../lib/rate-limit';
import { principalOf, route } from '../../lib/route';
import * as grievances from './grievances.service';

const noQuery = z.strictObject({});
const idOf = (c: Context<AppEnv>) => parseWith(idSchema, c.req.param('id'), 'id');

/** Grievances and reports of campaigns (docs/charity.md "Grievances"); who may call each is in access.ts, which grievance in grievances.service.ts. */
export function grievanceRoutes(app: Hono<AppEnv>, deps: Deps) {
  // The fixed paths before /grievance/:id.
  route(app, deps, 'GET /grievance/mine', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await grievances.myGrievances(deps, principalOf(c)));
  });
  route(app, deps, 'GET /grievance/queue', async (c) => c.json(await grievances.grievanceQueue(deps, parseQuery(c, grievanceQueueSchema))));
  route(app, deps, 'GET /grievance/handlers', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await grievances.grievanceHandlers(deps));
  });
  route(app, deps, 'POST /grievance', async (c) => c.json(await grievances.raiseGrievance(deps, principalOf(c), await parseJson(c, grievanceRaiseSchema)), 201));
  route(app, deps, 'GET /grievance/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await grievances.getGrievance(deps, principalOf(c), idOf(c)));
  });
  route(app, deps, 'POST /grievance/:id/messages', async (c) => {
    const id = idOf(c);
    const { text } = await parseJson(c, grievanceMessageSchema);
    return c.json(await grievances.postGrievanceMessage(deps, principalOf(c), id, text), 201);
  });
  route(app, deps, 'POST /grievance/:id/reopen', async (c) => {
    const id = idOf(c);
    const { text } = await parseJson(c, grievanceReopenSchema);
    return c.json(await grievances.reopenGrievance(deps, principalOf(c), id, text));
  });
  route(app, deps, 'POST /grievance/:id/assign', async (c) => {
    const id = idOf(c);
    const { ownerId } = await parseJson(c, grievanceAssignSchema);
    return c.json(await grievances.assignGrievance(deps, principalOf(c), id, ownerId));
  });
  route(app, deps, 'POST /grievance/:id/resolve', async (c) => {
    const id = idOf(c);
    const { note } = await parseJson(c, grievanceResolveSchema);
    return c.json(await grievances.resolveGrievance(deps, principalOf(c), id, note));
  });
  route(app, deps, 'POST /campaign/:id/report', async (c) => {
    const id = idOf(c);
    const body = await parseJson(c, campaignReportSchema);
    // Spent before the campaign is looked at: the answer never depends on whether it exists.
    const p = c.get('principal');
    const limits: Limit[] = [['campaignReport', `ip:${clientIp(c, deps.config.TRUST_PROXY)}`]];
    if (p) limits.push(['campaignReport', `person:${p.id}`]);
    await deps.rates.consumeAll(limits);
    return c.json(await grievances.reportCampaign(deps, p, id, body), 201);
  });
}
