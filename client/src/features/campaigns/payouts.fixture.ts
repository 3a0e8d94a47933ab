import type { PayoutAccount, Withdrawable, Withdrawal } from './api/payouts';

/**
 * Test data of the payout screens (docs/charity.md "Payout accounts", "Withdrawals"), paise:
 * the fixture campaign's beneficiary Asha Kumari with a verified UPI id, and a ₹400 withdrawal
 * waiting for its second approval.
 */
const HOUR = 3_600_000;

export function accountFixture(over: Partial<PayoutAccount> = {}): PayoutAccount {
  return {
    id: 'pa-1',
    kind: 'VPA',
    holderName: 'Asha Kumari',
    vpa: 'asha@upi',
    supplierName: null,
    campaignId: null,
    status: 'VERIFIED',
    verifiedName: 'ASHA KUMARI',
    nameMatches: true,
    createdAt: Date.UTC(2026, 4, 10, 6, 0),
    verifiedAt: Date.UTC(2026, 4, 10, 6, 0),
    ...over,
  };
}

export function bankAccountFixture(over: Partial<PayoutAccount> = {}): PayoutAccount {
  return accountFixture({ id: 'pa-2', kind: 'BANK', vpa: undefined, ifsc: 'SBIN0001234', accountLast4: '6789', ...over });
}

export function supplierFixture(over: Partial<PayoutAccount> = {}): PayoutAccount {
  return bankAccountFixture({ id: 'pa-s', holderName: 'Sharma Book Depot', supplierName: 'Sharma Book Depot', campaignId: 'c-1', verifiedName: 'SHARMA BOOK DEPOT', ...over });
}

export function withdrawableFixture(over: Partial<Withdrawable> = {}): Withdrawable {
  return { domestic: 188_00, foreign: 47_00, held: 40_00, available: 195_00, updateRequired: false, ...over };
}

export function withdrawalFixture(over: Partial<Withdrawal> = {}): Withdrawal {
  const createdAt = Date.now() - 2 * HOUR;
  return {
    id: 'w-1',
    campaignId: 'c-1',
    campaignTitle: { en: 'Books for Asha', hi: 'आशा के लिए किताबें' },
    requester: { id: 'p-ben', name: 'Asha Kumari' },
    payee: accountFixture(),
    amount: 400_00,
    fromDomestic: 188_00,
    fromForeign: 212_00,
    purpose: { en: 'Maths guide and science kit', hi: 'गणित गाइड और विज्ञान किट' },
    status: 'REQUESTED',
    approvals: [{ by: { id: 'p-trustee', name: 'Tara Trustee' }, at: createdAt + HOUR, note: 'Receipt seen' }],
    reason: null,
    dueAt: createdAt + 48 * HOUR,
    overdue: false,
    payoutId: null,
    utr: null,
    failure: null,
    createdAt,
    paidAt: null,
    history: [],
    ...over,
  };
}
