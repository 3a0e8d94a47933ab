import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import { donationExportSchema, donationListSchema, donationPaySchema, donationQuoteSchema, donationStartSchema, foreignSummarySchema } from '@pm/protocol/donation';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { payBackDoubleDebits } from '../payments/refund-due';
import * as donations from './donations.service';

/** Donations (docs/charity.md "API"); who may call each is in access.ts, which donation in donations.service.ts. */
const tokenQuery = z.strictObject({ t: z.string().max(200).optional() });
const orderIdOf = (c: Context<AppEnv>) => parseWith(idSchema, c.req.param('orderId'), 'orderId');

export function donationRoutes(app: Hono<AppEnv>, deps: Deps) {
  // The fixed paths before /donation/:orderId.
  route(app, deps, 'GET /donation/quote', async (c) => c.json(await donations.quote(deps, parseQuery(c, donationQuoteSchema))));
  route(app, deps, 'GET /donation/mine', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await donations.myDonations(deps, principalOf(c)));
  });
  route(app, deps, 'GET /donation/list', async (c) => c.json(await donations.listDonations(deps, parseQuery(c, donationListSchema))));
  route(app, deps, 'GET /donation/export', async (c) => {
    const { fy, foreign } = parseQuery(c, donationExportSchema);
    const csv = await donations.exportDonations(deps, fy, foreign);
    const name = foreign ? `foreign-contributions-${fy}.csv` : `donations-${fy}.csv`;
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` });
  });
  route(app, deps, 'GET /donation/foreign-summary', async (c) => c.json(await donations.foreignSummary(deps, parseQuery(c, foreignSummarySchema).fy)));
  route(app, deps, 'POST /donation', async (c) => c.json(await donations.startDonation(deps, c.get('principal'), await parseJson(c, donationStartSchema)), 201));
  route(app, deps, 'GET /donation/:orderId', async (c) => c.json(await donations.donationStatus(deps, c.get('principal'), orderIdOf(c), parseQuery(c, tokenQuery).t)));
  route(app, deps, 'POST /donation/:orderId/pay', async (c) => c.json(await donations.payDonation(deps, c.get('principal'), orderIdOf(c), await parseJson(c, donationPaySchema))));
  route(app, deps, 'POST /donation/:orderId/refund-due', async (c) => {
    const orderId = orderIdOf(c);
    await parseJson(c, z.strictObject({}));
    return c.json(await payBackDoubleDebits(deps, principalOf(c), orderId));
  });
  route(app, deps, 'GET /donation/:orderId/receipt', async (c) => c.json(await donations.donationReceipt(deps, c.get('principal'), orderIdOf(c), parseQuery(c, tokenQuery).t)));
}
