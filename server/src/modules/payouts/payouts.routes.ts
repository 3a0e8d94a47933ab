import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import { payeeCreateSchema, payoutAccountCreateSchema, withdrawalApproveSchema, withdrawalCreateSchema, withdrawalRejectSchema } from '@pm/protocol/payout';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as accounts from './payout-accounts.service';
import { checkWithdrawal, payoutWebhook, retryWithdrawal } from './withdrawal-payout';
import { approveWithdrawal, cancelWithdrawal, rejectWithdrawal } from './withdrawal-moves';
import * as withdrawals from './withdrawals.service';

const noQuery = z.strictObject({});
const noBody = z.strictObject({});
const idOf = (c: Context<AppEnv>) => parseWith(idSchema, c.req.param('id'), 'id');

/** A body that may be left out (a move with nothing to say): none is `{}`; one given is parsed as usual. */
async function optionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  if (!c.req.header('content-type') && (c.req.header('content-length') ?? '0') === '0') return parseWith(schema, {}, 'body');
  return parseJson(c, schema);
}

/**
 * Payout accounts and withdrawals (docs/charity.md "Payout accounts", "Withdrawals"); who may call
 * each is in access.ts, which campaign's in payout-access.ts. The static /withdrawal paths go
 * before /withdrawal/:id.
 */
export function payoutRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /payout-account/mine', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await accounts.myAccounts(deps, principalOf(c)));
  });
  route(app, deps, 'POST /payout-account', async (c) => c.json(await accounts.createOwnAccount(deps, principalOf(c), await parseJson(c, payoutAccountCreateSchema)), 201));
  route(app, deps, 'DELETE /payout-account/:id', async (c) => c.json(await accounts.removeAccount(deps, principalOf(c), idOf(c))));
  route(app, deps, 'GET /campaign/:id/payees', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await accounts.campaignPayees(deps, principalOf(c), idOf(c)));
  });
  route(app, deps, 'POST /campaign/:id/payees', async (c) => {
    const id = idOf(c);
    return c.json(await accounts.createPayee(deps, principalOf(c), id, await parseJson(c, payeeCreateSchema)), 201);
  });

  route(app, deps, 'GET /campaign/:id/withdrawable', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await withdrawals.getWithdrawable(deps, principalOf(c), idOf(c)));
  });
  route(app, deps, 'GET /campaign/:id/withdrawals', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await withdrawals.campaignWithdrawals(deps, principalOf(c), idOf(c)));
  });
  route(app, deps, 'POST /campaign/:id/withdrawals', async (c) => {
    const id = idOf(c);
    return c.json(await withdrawals.requestWithdrawal(deps, principalOf(c), id, await parseJson(c, withdrawalCreateSchema)), 201);
  });
  route(app, deps, 'GET /withdrawal/mine', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await withdrawals.myWithdrawals(deps, principalOf(c)));
  });
  route(app, deps, 'GET /withdrawal/queue', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await withdrawals.withdrawalQueue(deps));
  });
  route(app, deps, 'GET /withdrawal/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await withdrawals.getWithdrawal(deps, principalOf(c), idOf(c)));
  });
  route(app, deps, 'POST /withdrawal/:id/approve', async (c) => {
    const id = idOf(c);
    return c.json(await approveWithdrawal(deps, principalOf(c), id, await optionalJson(c, withdrawalApproveSchema)));
  });
  route(app, deps, 'POST /withdrawal/:id/reject', async (c) => {
    const id = idOf(c);
    const { reason } = await parseJson(c, withdrawalRejectSchema);
    return c.json(await rejectWithdrawal(deps, principalOf(c), id, reason));
  });
  route(app, deps, 'POST /withdrawal/:id/cancel', async (c) => {
    const id = idOf(c);
    await optionalJson(c, noBody);
    return c.json(await cancelWithdrawal(deps, principalOf(c), id));
  });
  route(app, deps, 'POST /withdrawal/:id/check', async (c) => {
    const id = idOf(c);
    await optionalJson(c, noBody);
    return c.json(await checkWithdrawal(deps, principalOf(c), id));
  });
  route(app, deps, 'POST /withdrawal/:id/retry', async (c) => {
    const id = idOf(c);
    await optionalJson(c, noBody);
    return c.json(await retryWithdrawal(deps, principalOf(c), id));
  });
  // The signature is over the raw body: read as text, never re-serialised.
  route(app, deps, 'POST /webhook/razorpayx', async (c) => c.json(await payoutWebhook(deps, c.req.raw.headers, await c.req.text())));
}
