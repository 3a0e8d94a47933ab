import { and, asc, inArray, lte } from 'drizzle-orm';
import type { Deps } from '../../context';
import { purchaseOrder } from '../../db/schema';
import { runExclusive } from '../../lib/exclusive';
import { OPEN_STATUSES } from './payments.machine';
import { refresh } from './payments.service';

/** An order younger than this is left to the buyer's redirect and the webhook. */
export const RECONCILE_AFTER_MS = 60_000;
/** Orders re-checked per run (oldest first); the rest wait for the next run. */
const BATCH = 200;

/**
 * The reconciliation job (docs/architecture.md "An order, from Buy to PAID"): orders still CREATED or PENDING a minute after they were
 * made are re-checked with their provider's status API and the answer applied (a payment whose
 * webhook never came becomes PAID; one still PENDING past its expiry becomes EXPIRED; an order
 * never sent to a provider expires). One order's provider failure does not stop the others.
 */
export async function reconcilePending(deps: Deps, now = Date.now()): Promise<{ checked: number; changed: number; failed: number }> {
  const due = await deps.db
    .select()
    .from(purchaseOrder)
    .where(and(inArray(purchaseOrder.status, [...OPEN_STATUSES]), lte(purchaseOrder.createdAt, now - RECONCILE_AFTER_MS)))
    .orderBy(asc(purchaseOrder.createdAt))
    .limit(BATCH);
  let changed = 0;
  let failed = 0;
  for (const order of due) {
    try {
      const after = await refresh(deps, order, { via: 'reconcile', actor: null }, now);
      if (after.status !== order.status) changed++;
    } catch (err) {
      failed++;
      deps.log.warn({ err, orderId: order.id }, 'reconcile: status check failed');
    }
  }
  return { checked: due.length, changed, failed };
}

/**
 * Runs reconcilePending every `intervalMs` (one run at a time), and keeps the webhook inbox's
 * worker going (webhook-inbox.ts); returns the stop function.
 */
export function startReconciler(deps: Deps, intervalMs = 60_000): () => void {
  let running = false;
  // Events stored before a restart (or a crash) are taken up at once.
  const inbox = deps.webhooks;
  inbox.kick();
  const timer = setInterval(() => {
    // Once across instances (lib/exclusive): one instance polls the inbox and reconciles.
    runExclusive(deps.db, 'webhook-inbox', () => inbox.kick(), { everyMs: intervalMs }).catch((err: unknown) => deps.log.error({ err }, 'webhook inbox failed'));
    if (running) return;
    running = true;
    runExclusive(deps.db, 'reconcile', () => reconcilePending(deps), { everyMs: intervalMs })
      .catch((err: unknown) => deps.log.error({ err }, 'reconcile job failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    inbox.stop();
  };
}
