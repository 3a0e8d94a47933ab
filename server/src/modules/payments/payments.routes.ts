import type { Hono } from 'hono';
import { orderStatusUpdateSchema } from '@pm/protocol/order';
import {
  checkPaymentQuerySchema,
  checkPaymentStatusSchema,
  createDummyOrderSchema,
  createOrderSchema,
  initiatePaymentSchema,
  type Provider,
  retryPaymentSchema,
  verifyRazorpaySchema,
} from '@pm/protocol/payment';
import type { AppEnv, Deps } from '../../context';
import { badRequest } from '../../lib/errors';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as payments from './payments.service';
import { answerWebhook } from './webhook-direct';

/** Plans and payments (docs/payments.md; docs/payments.md). Thin: the service holds the logic. */
export function paymentRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /payment', async (c) => c.json(await payments.createPlanOrder(deps, principalOf(c), await parseJson(c, createOrderSchema))));
  route(app, deps, 'POST /payment/createDummyOrder', async (c) =>
    c.json(await payments.createDonationOrder(deps, principalOf(c), await parseJson(c, createDummyOrderSchema))),
  );
  route(app, deps, 'GET /payment/checkPayment', async (c) => {
    const q = parseQuery(c, checkPaymentQuerySchema);
    if (!q.order_id && !q.pg_order_id) throw badRequest('order_id is required');
    return c.json(await payments.checkStatus(deps, principalOf(c), { id: q.order_id, pgOrderId: q.order_id ? undefined : q.pg_order_id }));
  });
  route(app, deps, 'POST /payment/verifyRazorpayPayment', async (c) =>
    c.json(await payments.verifyRazorpay(deps, principalOf(c), await parseJson(c, verifyRazorpaySchema))),
  );
  route(app, deps, 'POST /payment/retryPayment', async (c) => c.json(await payments.retryPayment(deps, principalOf(c), await parseJson(c, retryPaymentSchema))));
  route(app, deps, 'GET /payment/my', async (c) => c.json(await payments.myPayments(deps, principalOf(c))));
  route(app, deps, 'GET /payment/receipt/:id', async (c) => c.json(await payments.receipt(deps, principalOf(c), c.req.param('id') ?? '')));
  // The back office's change of an order's status (UPDATE_ORDER), through the order state machine.
  route(app, deps, 'PATCH /order/status', async (c) => c.json(await payments.setOrderStatus(deps, principalOf(c), await parseJson(c, orderStatusUpdateSchema))));

  route(app, deps, 'POST /phonepe/initiatePayment', async (c) => {
    const who = principalOf(c);
    const body = await parseJson(c, initiatePaymentSchema);
    return c.json(await payments.initiatePayment(deps, who, 'phonepe', body));
  });
  route(app, deps, 'POST /razorpay/initiatePayment', async (c) => {
    const who = principalOf(c);
    const body = await parseJson(c, initiatePaymentSchema);
    return c.json(await payments.razorpayCheckout(deps, who, body));
  });
  for (const provider of ['phonepe', 'razorpay'] as const satisfies readonly Provider[]) {
    route(app, deps, `POST /${provider}/checkPaymentStatus`, async (c) => {
      const body = await parseJson(c, checkPaymentStatusSchema);
      return c.json(await payments.checkStatus(deps, principalOf(c), { id: body.merchantTransactionId }));
    });
    // Under Node the server takes these before the app (webhook-direct.ts); in-process requests
    // (tests) come here, to the same answer.
    route(app, deps, `POST /${provider}/webhook`, async (c) => {
      const a = await answerWebhook(deps, provider, c.req.raw.headers, await c.req.text());
      return c.json(a.body, a.status);
    });
  }
}
