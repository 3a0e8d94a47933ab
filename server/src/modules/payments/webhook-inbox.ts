import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Provider } from '@pm/protocol/payment';
import type { Deps } from '../../context';
import { type DB, isClosed } from '../../db/client';
import { paymentEvent, purchaseOrder } from '../../db/schema';
import { affected, first, transaction } from '../../db/transaction';
import { groupCommit } from '../../lib/group-commit';
import { rawStatement } from '../../lib/raw-statement';
import { announce, applyTransition, type Applied } from './order-transitions';
import type { ProviderStatus } from './provider';

/*
 * The webhook inbox (docs/architecture.md "An order, from Buy to PAID" and its benchmark). PhonePe and Razorpay ask a merchant to
 * answer a webhook quickly with a 2xx and to do the work after (Razorpay: within 5 s, else the
 * delivery counts as failed and is retried; PhonePe likewise retries a slow or non-2xx answer),
 * and both deliver an event more than once and out of order. So a delivery is handled in two
 * steps:
 *
 * 1. `receiveWebhook` (the route): the signature is verified in constant time by the adapter and
 *    the event stored under its unique id (`INSERT … ON CONFLICT DO NOTHING`, one prepared
 *    statement). A new event is answered 200 once it is on disk; a repeated one is answered 200
 *    as a duplicate and changes nothing. Nothing else runs before the answer, so a storm of
 *    deliveries is answered in well under a millisecond each.
 * 2. The worker (`deps.webhooks`, made by `createWebhookInbox`) takes stored events not yet processed, oldest first, asks
 *    the provider's status API for the order the event names (the truth, never the event's own
 *    claims), and applies the answer through the state machine (`applyTransition`,
 *    order-transitions.ts) in ONE transaction
 *    with `processed_at` set on the event (`… WHERE processed_at IS NULL`): an event changes an
 *    order at most once, even when two workers or a restart meet it. A status call that fails is
 *    tried again with a growing delay; the event stays in the inbox meanwhile, and the
 *    reconciliation job (reconcile.ts) still re-checks the order itself.
 *
 * A crash between the two steps loses nothing: the stored event is taken up when the server
 * starts again (index.ts kicks the inbox on start, and the reconciler every minute).
 */

/** Status checks in flight at once (a real provider answers in ~100-300 ms over the network). */
export const INBOX_WORKERS = 4;
/**
 * The worker waits until no delivery has arrived for this long, so that a storm of deliveries is
 * answered first: an answer waits behind whatever work its event-loop turn does, and a storm's
 * deliveries do not arrive as one block (bench:payments saw gaps of several hundred ms between
 * its waves on a busy machine)...
 */
const QUIET_MS = 1_000;
/** ...but never longer than this: under steady deliveries the work still goes on. */
const MAX_DEFER_MS = 10_000;
/** Events read from the database per refill of the worker's queue. */
const BATCH = 64;
/** Delay before the n-th retry of a failed status check: 5 s doubling, at most an hour. */
export const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
/**
 * After this many failed status checks (about a day with the delays above, as long as Razorpay
 * retries a delivery) the event is set aside with its error; its order is still re-checked by
 * the reconciliation job while it is open.
 */
export const MAX_ATTEMPTS = 30;

type StoredEvent = Pick<typeof paymentEvent.$inferSelect, 'id' | 'provider' | 'merchantOrderId' | 'pgOrderId' | 'attempts'>;
type Order = typeof purchaseOrder.$inferSelect;

export type Inbox = {
  /** Something new is waiting (or may be): the worker looks at the inbox soon. */
  kick(): void;
  /** A delivery was just stored: as kick, once deliveries stop coming for a moment. */
  arrived(): void;
  /** Processes what is due now (without waiting for a quiet moment); resolves once no due event is waiting and none is being processed. */
  drain(): Promise<void>;
  /** Stops the worker's timers (server shutdown); events left stay stored. */
  stop(): void;
};

const inserts = new WeakMap<DB, ReturnType<typeof rawStatement>>();

function insertStatement(db: DB) {
  let stmt = inserts.get(db);
  if (!stmt) {
    stmt = rawStatement(
      db,
      db
        .insert(paymentEvent)
        .values({
          id: sql.placeholder('id'),
          provider: sql.placeholder('provider'),
          type: sql.placeholder('type'),
          payload: sql.placeholder('payload'),
          merchantOrderId: sql.placeholder('merchantOrderId'),
          pgOrderId: sql.placeholder('pgOrderId'),
          receivedAt: sql.placeholder('receivedAt'),
          nextAttemptAt: sql.placeholder('receivedAt'),
        })
        .onConflictDoNothing(),
    );
    inserts.set(db, stmt);
  }
  return stmt;
}

/**
 * A provider's webhook delivery. Not authentic (or for a provider this installation does not
 * use) → null: the route answers 401 and nothing is stored. Otherwise the event is stored, or
 * found already stored (`duplicate`), and the worker is told.
 */
export async function receiveWebhook(deps: Deps, providerName: Provider, headers: Headers, rawBody: string, now = Date.now()): Promise<{ duplicate: boolean } | null> {
  const { providers } = deps.payments;
  if (!providers.has(providerName)) return null;
  const provider = providers.get(providerName);
  const event = provider.parseWebhook(headers, rawBody);
  if (!event) return null;
  // One statement; the deliveries of one event-loop turn share a transaction (lib/group-commit.ts),
  // each in its own savepoint, and each is answered once that transaction has committed.
  const stored = await groupCommit(deps.db)((tx) =>
    insertStatement(tx).run({
      id: `${provider.name}:${event.eventId}`,
      provider: provider.name,
      type: event.type,
      // The body as received: valid JSON (the adapter parsed it), kept byte for byte.
      payload: rawBody,
      merchantOrderId: event.merchantOrderId,
      pgOrderId: event.pgOrderId,
      receivedAt: now,
    }),
    { oneStatement: true },
  );
  const duplicate = affected(stored) === 0;
  if (!duplicate) deps.webhooks.arrived();
  return { duplicate };
}

async function orderOf(deps: Deps, ev: StoredEvent): Promise<Order | null> {
  return (
    (ev.merchantOrderId ? await first(deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.id, ev.merchantOrderId))) : undefined) ??
    (ev.pgOrderId ? await first(deps.db.select().from(purchaseOrder).where(eq(purchaseOrder.pgOrderId, ev.pgOrderId)).limit(1)) : undefined) ??
    null
  );
}

let turns: Promise<void> = Promise.resolve();
/** Resolves in a later event-loop turn than the previous caller's: a queue of one per turn. */
function oneTurnEach(): Promise<void> {
  const mine = turns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  turns = mine;
  return mine;
}

/**
 * Processes one stored event: the status check (outside any transaction), then the state change
 * and `processed_at` in one transaction. Returns what was applied, or null when nothing was
 * (an event of no order of ours, one already processed, or a failed check, which is retried).
 */
export async function processEvent(deps: Deps, ev: StoredEvent, now = () => Date.now()): Promise<Applied | null> {
  const order = await orderOf(deps, ev);
  // Ours only if it is this provider's order; anything else is kept and left alone.
  const mine = order && (!order.provider || order.provider === ev.provider) ? order : null;
  let status: ProviderStatus | null = null;
  if (mine && mine.status !== 'REFUNDED') {
    const { providers } = deps.payments;
    const name = ev.provider as Provider;
    try {
      if (!providers.has(name)) throw new Error(`no ${ev.provider} adapter in this installation`);
      status = await providers.get(name).status(mine.id, mine.pgOrderId ?? ev.pgOrderId);
    } catch (err) {
      const attempts = ev.attempts + 1;
      const giveUp = attempts >= MAX_ATTEMPTS;
      const at = now();
      await deps.db
        .update(paymentEvent)
        .set({
          attempts,
          nextAttemptAt: at + retryDelayMs(attempts),
          lastError: String(err instanceof Error ? err.message : err).slice(0, 500),
          ...(giveUp ? { processedAt: at, orderId: mine.id } : {}),
        })
        .where(and(eq(paymentEvent.id, ev.id), isNull(paymentEvent.processedAt)));
      deps.log[giveUp ? 'error' : 'warn']({ err, eventId: ev.id, orderId: mine.id, attempts }, giveUp ? 'webhook event set aside: status check kept failing' : 'webhook event: status check failed, will retry');
      return null;
    }
  }
  // One transaction per event-loop turn at most, whatever the number of workers: the requests
  // read in between (a storm of deliveries) wait behind one apply, never behind all of them.
  await oneTurnEach();
  const at = now();
  const applied = await transaction(deps.db, async (tx) => {
    const claimed = await first(
      tx
        .update(paymentEvent)
        .set({ processedAt: at, orderId: order?.id ?? null, attempts: ev.attempts + 1 })
        .where(and(eq(paymentEvent.id, ev.id), isNull(paymentEvent.processedAt)))
        .returning({ id: paymentEvent.id }),
    );
    if (!claimed) return null;
    return mine && status ? applyTransition(tx, deps, mine.id, { kind: 'provider', ...status }, { via: 'webhook', actor: null, eventId: ev.id }, at) : null;
  });
  announce(deps, applied);
  return applied;
}

/**
 * The inbox worker of an app (compose.ts makes one, deps.webhooks): it applies the stored
 * deliveries of this database, a few at a time, after their answers have gone.
 */
export function createWebhookInbox(deps: Deps): Inbox {
  const queue: StoredEvent[] = [];
  const taken = new Set<string>();
  let running = 0;
  let scheduled = false;
  let stopped = false;
  let waiters: (() => void)[] = [];
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const due = async (now: number): Promise<StoredEvent[]> =>
    (
      await deps.db
        .select({ id: paymentEvent.id, provider: paymentEvent.provider, merchantOrderId: paymentEvent.merchantOrderId, pgOrderId: paymentEvent.pgOrderId, attempts: paymentEvent.attempts })
        .from(paymentEvent)
        .where(and(isNull(paymentEvent.processedAt), lte(paymentEvent.nextAttemptAt, now)))
        .orderBy(asc(paymentEvent.nextAttemptAt), asc(paymentEvent.receivedAt))
        .limit(BATCH + taken.size)
    )
      // Taken by a worker, or already queued (by a pump that read while this one waited).
      .filter((e) => !taken.has(e.id) && !queue.some((q) => q.id === e.id));

  /** A timer for the earliest retry still waiting, so that it is not left to the reconciler. */
  /** The database was closed (shutdown, a test's end): the worker stops; what is stored waits. */
  const closed = () => {
    if (!isClosed(deps.db)) return false;
    stopped = true;
    return true;
  };

  const armRetry = async () => {
    if (stopped || retryTimer || closed()) return;
    const next = (await first(deps.db.select({ at: sql<number>`min(${paymentEvent.nextAttemptAt})` }).from(paymentEvent).where(isNull(paymentEvent.processedAt))))?.at;
    // Stopped, or armed by another settle, while the database answered.
    if (next === null || next === undefined || stopped || retryTimer) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        kick();
      },
      Math.max(0, next - Date.now()) + 10,
    );
    retryTimer.unref();
  };

  const settle = async () => {
    if (running > 0 || queue.length > 0) return;
    await armRetry();
    // Work started while the database answered: its own end settles again.
    if (running > 0 || queue.length > 0) return;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  let lastArrival = -Infinity;
  let deferredSince: number | null = null;
  let deferTimer: ReturnType<typeof setTimeout> | null = null;
  /** Deliveries are arriving (and not for too long already): the work waits for a quiet moment. */
  const deferred = (): boolean => {
    // Someone waits for the work (drain): no reason to wait for a quiet moment.
    if (waiters.length > 0) return false;
    const now = performance.now();
    if (now - lastArrival >= QUIET_MS) {
      deferredSince = null;
      return false;
    }
    deferredSince ??= now;
    if (now - deferredSince >= MAX_DEFER_MS) {
      deferredSince = null;
      return false;
    }
    if (!deferTimer) {
      deferTimer = setTimeout(
        () => {
          deferTimer = null;
          kick();
        },
        Math.ceil(QUIET_MS - (now - lastArrival)),
      );
      deferTimer.unref();
    }
    return true;
  };

  const pump = async () => {
    scheduled = false;
    if (stopped || closed()) return settle();
    if (deferred()) return;
    if (queue.length === 0 && running < INBOX_WORKERS) queue.push(...(await due(Date.now())).slice(0, BATCH));
    while (running < INBOX_WORKERS && queue.length > 0) {
      const ev = queue.shift()!;
      taken.add(ev.id);
      running++;
      processEvent(deps, ev)
        .catch((err: unknown) => deps.log.error({ err, eventId: ev.id }, 'webhook event processing failed'))
        .finally(() => {
          taken.delete(ev.id);
          running--;
          // The next one in a later turn: deliveries arriving meanwhile are answered first.
          kick();
        });
    }
    await settle();
  };

  const kick = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      pump().catch((err: unknown) => deps.log.error({ err }, 'webhook inbox failed'));
    });
  };

  return {
    kick,
    arrived() {
      lastArrival = performance.now();
      kick();
    },
    drain: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        kick();
        if (stopped) settle().catch((err: unknown) => deps.log.error({ err }, 'webhook inbox failed'));
      }),
    stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (deferTimer) clearTimeout(deferTimer);
      retryTimer = null;
      deferTimer = null;
    },
  };
}
