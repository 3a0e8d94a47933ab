import { eq } from 'drizzle-orm';
import type { Deps } from '../../context';
import { campaign, person } from '../../db/schema';
import { first } from '../../db/transaction';
import type { Message } from '../push/messages';
import type { WithdrawalRow } from './withdrawal-view';

/*
 * The beneficiary is told when a withdrawal of their campaign is PAID, REJECTED or FAILED
 * (docs/charity.md "Withdrawals"): a push message to their devices and an e-mail, both in English
 * and Hindi, through the existing adapters. Called after the commit; a failure is logged, never
 * the caller's.
 */

type Outcome = 'PAID' | 'REJECTED' | 'FAILED';

const rupees = (paise: number) => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(paise / 100);

function messageOf(w: WithdrawalRow, outcome: Outcome, title: string): Message {
  const amount = rupees(w.amount);
  const texts: Record<Outcome, Pick<Message, 'title' | 'body'>> = {
    PAID: {
      title: { en: 'Withdrawal paid', hi: 'निकासी का भुगतान हुआ' },
      body: { en: `${amount} for "${title}" has been paid${w.utr ? ` (UTR ${w.utr})` : ''}. Post an update saying what it bought.`, hi: `"${title}" के लिए ${amount} का भुगतान हो गया${w.utr ? ` (UTR ${w.utr})` : ''}। एक अपडेट पोस्ट करें कि इससे क्या खरीदा गया।` },
    },
    REJECTED: {
      title: { en: 'Withdrawal rejected', hi: 'निकासी अस्वीकार हुई' },
      body: { en: `${amount} for "${title}" was rejected: ${w.reason ?? ''}`, hi: `"${title}" के लिए ${amount} की निकासी अस्वीकार हुई: ${w.reason ?? ''}` },
    },
    FAILED: {
      title: { en: 'Withdrawal payout failed', hi: 'निकासी का भुगतान विफल हुआ' },
      body: { en: `${amount} for "${title}" could not be paid: ${w.failure ?? ''}. The trust will try again.`, hi: `"${title}" के लिए ${amount} का भुगतान नहीं हो सका: ${w.failure ?? ''}। ट्रस्ट फिर से कोशिश करेगा।` },
    },
  };
  return { kind: 'withdrawal', ...texts[outcome], url: `/campaigns/${encodeURIComponent(w.campaignId)}`, tag: `withdrawal-${w.id}` };
}

async function tell(deps: Deps, w: WithdrawalRow, outcome: Outcome): Promise<void> {
  const c = await first(deps.db.select({ beneficiaryId: campaign.beneficiaryId, title: campaign.titleEn }).from(campaign).where(eq(campaign.id, w.campaignId)));
  if (!c?.beneficiaryId) return;
  const who = await first(deps.db.select({ email: person.email }).from(person).where(eq(person.id, c.beneficiaryId)));
  const m = messageOf(w, outcome, c.title);
  await deps.push.notify([c.beneficiaryId], m);
  if (who?.email) {
    await deps.outbox.send({ channel: 'email', to: who.email, subject: `${m.title.en} / ${m.title.hi}`, body: `${m.body.en}\n\n${m.body.hi}` });
  }
}

/** Tells the beneficiary, in the background; call after the commit. */
export function notifyOutcome(deps: Deps, w: WithdrawalRow, outcome: Outcome): void {
  void tell(deps, w, outcome).catch((err: unknown) => deps.log.error({ err, withdrawalId: w.id }, 'withdrawal message failed'));
}
