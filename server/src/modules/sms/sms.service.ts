import { and, eq } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import type { Deps } from '../../context';
import { smsInbound } from '../../db/schema';
import { groupCommit } from '../../lib/group-commit';
import { first } from '../../db/transaction';
import { notFound, unauthenticated } from '../../lib/errors';
import type { ProviderCallback, SmsProvider } from './adapter';
import { applyDeliveryReports } from './sms-outbox';

/*
 * What our SMS callback routes do (docs/sms.md "Delivery reports and the e-mail fallback",
 * "Inbound messages"). A callback that is not the configured provider's, or whose signature (or
 * token) is wrong, is refused with 401 and changes nothing.
 */

/**
 * The adapter of `provider`, when it is the one this installation uses. A callback for another
 * provider cannot be checked here, so it is refused as one whose signature is wrong.
 */
function adapterFor(deps: Deps, provider: SmsProvider) {
  const adapter = deps.sms.adapter;
  if (!adapter || adapter.provider !== provider || !deps.sms.outbox) throw unauthenticated(MSG.invalidSignature);
  return { adapter, outbox: deps.sms.outbox };
}

/**
 * A delivery-report callback. Reports that name no message of ours are answered 404, so that the
 * provider sends them again: a report can overtake the answer to our send (sms-outbox.ts).
 */
export async function deliveryReport(deps: Deps, provider: SmsProvider, cb: ProviderCallback) {
  const { adapter, outbox } = adapterFor(deps, provider);
  const reports = adapter.deliveryReports(cb);
  if (!reports) throw unauthenticated(MSG.invalidSignature);
  const matched = await applyDeliveryReports(deps.db, outbox, provider, reports);
  if (reports.length > 0 && matched === 0) throw notFound();
  return { success: true as const };
}

/**
 * An inbound-message callback: checked, then handed to deps.smsInbound's handlers in order until
 * one takes it, once per provider message id (the id is claimed first; when a handler fails, the
 * claim is given back and the answer is 500, so that the provider delivers it again).
 */
export async function inboundMessage(deps: Deps, provider: SmsProvider, cb: ProviderCallback) {
  const { adapter } = adapterFor(deps, provider);
  const message = adapter.inbound(cb);
  if (!message) throw unauthenticated(MSG.invalidSignature);
  const key = and(eq(smsInbound.provider, provider), eq(smsInbound.providerMessageId, message.providerMessageId));
  // The claim and the mark are single statements in the writes of their event-loop turn
  // (lib/group-commit.ts): a provider delivers inbound messages in bursts (answer codes after a
  // test), and one commit each would be most of their cost.
  const claimed = await groupCommit(deps.db)(
    (tx) =>
      first(
        tx
          .insert(smsInbound)
          .values({ provider, providerMessageId: message.providerMessageId, sender: message.from, receivedAt: message.receivedAt.getTime() })
          .onConflictDoNothing()
          .returning({ id: smsInbound.providerMessageId }),
      ),
    { oneStatement: true },
  );
  if (!claimed) return { success: true as const, duplicate: true };
  try {
    for (const handler of deps.smsInbound) {
      if (await handler(message)) {
        await groupCommit(deps.db)((tx) => tx.update(smsInbound).set({ handled: true }).where(key), { oneStatement: true });
        break;
      }
    }
  } catch (err) {
    await deps.db.delete(smsInbound).where(key);
    throw err;
  }
  return { success: true as const, duplicate: false };
}
