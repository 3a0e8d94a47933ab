import type { Config } from './env';
import type { DB } from './db/client';
import type { EventBus } from './lib/events';
import type { Logger } from './lib/logger';
import type { AfterAnswer, Outbox } from './lib/outbox';
import type { InboundSmsHandler } from './lib/sms-inbound';
import type { RateLimits } from './lib/rate-limit';
import type { PaymentServices } from './modules/payments/providers/index';
import type { OrderKindMoney } from './modules/payments/order-transitions';
import type { Inbox } from './modules/payments/webhook-inbox';
import type { PayoutServices } from './modules/payouts/payout-services';
import type { PushService } from './modules/push/push.service';
import type { SmsServices } from './modules/sms/sms-services';
import type { SmsOutbox } from './modules/sms/sms-outbox';
import type { LazyTranslator } from './modules/translate/translator';
import type { AttemptSubmittedHook } from './modules/sync/sync.service';
import type { ResultsOpenedHook } from './modules/live-tests/live-tests.service';

/** What the composition root (compose.ts) builds from: the process's adapters and the database. */
export type BaseDeps = {
  db: DB;
  config: Config;
  outbox: Outbox;
  rates: RateLimits;
  log: Logger;
  events: EventBus;
};

/**
 * What services need, passed as plain arguments (never a Hono Context; docs/development.md).
 * Built in one place, compose.ts composeDeps: the base adapters, the services made from them,
 * and what reacts to a submitted attempt, in order.
 */
export type Deps = BaseDeps & {
  /** Work a route does after its answer has gone, in order per key (lib/outbox.ts). */
  afterAnswer: AfterAnswer;
  /** The payment providers, and the local PhonePe where it runs (payments/providers). */
  payments: PaymentServices;
  /** The payout adapter, and the local RazorpayX where it runs (modules/payouts). */
  payouts: PayoutServices;
  /** The machine translator, resolved (and the local one started) on first use (modules/translate). */
  translator: LazyTranslator;
  /** Web Push: its keys and its send queue (modules/push). */
  push: PushService;
  /** What an order of a kind other than a plan does with its money, by order kind (a donation's: modules/donations). */
  orderKinds: Readonly<Partial<Record<string, OrderKindMoney>>>;
  /** The worker that applies stored payment-provider deliveries (payments/webhook-inbox.ts). */
  webhooks: Inbox;
  /**
   * Run, in this order, inside the transaction that stores an attempt as it becomes SUBMITTED
   * (docs/architecture.md, "A submitted attempt"): scoring, then the result-ready message.
   */
  afterSubmit: readonly AttemptSubmittedHook[];
  /**
   * Run, in this order, when a live test's results open at its result time (live-tests
   * releaseDue): the set's score distribution is built (docs/live-tests.md "When it is refreshed").
   */
  afterResultsOpen: readonly ResultsOpenedHook[];
  /**
   * The SMS adapter, the local sandbox where it runs, and the outbox's SMS channel through it
   * (modules/sms; null where no provider is configured: SMS then go to the log only).
   */
  sms: SmsServices & { outbox: SmsOutbox | null };
  /** What acts on a text message that reached our number, in order (lib/sms-inbound.ts, docs/sms.md). */
  smsInbound: InboundSmsHandler[];
};

/** The signed-in person of a request. */
export type Principal = {
  id: string;
  name: string;
  permissions: Set<string>;
  /** The session the request's token belongs to (docs/security.md "Sessions and logout": logout ends it). */
  sessionId: string;
};

export type AppEnv = {
  Variables: {
    principal: Principal | null;
    requestId: string;
  };
};
