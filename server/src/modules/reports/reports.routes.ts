import type { Hono } from 'hono';
import { orderQuerySchema } from '@pm/protocol/order';
import { earningsQuerySchema, reportRangeSchema, transactionQuerySchema } from '@pm/protocol/report';
import type { AppEnv, Deps } from '../../context';
import { parseQuery } from '../../lib/http';
import { route } from '../../lib/route';
import * as reports from './reports.service';

/**
 * Sale, signup, transaction and earning reports, and the admin order list: reading only. An
 * admin's change of an order is the payments module's (PATCH /order/status, payments.routes.ts).
 */
export function reportRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /report/getOrdersByDate', async (c) => c.json(await reports.ordersByDate(deps, parseQuery(c, reportRangeSchema))));
  route(app, deps, 'GET /report/getUsersByDate', async (c) => c.json(await reports.usersByDate(deps, parseQuery(c, reportRangeSchema))));
  route(app, deps, 'GET /report/transactions', async (c) => c.json(await reports.transactions(deps, parseQuery(c, transactionQuerySchema))));
  route(app, deps, 'GET /report/globalEarnings', async (c) => c.json(await reports.globalEarnings(deps, parseQuery(c, earningsQuerySchema))));
  route(app, deps, 'GET /order', async (c) => c.json(await reports.listOrders(deps, parseQuery(c, orderQuerySchema))));
}
