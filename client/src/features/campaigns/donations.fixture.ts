import type { DonationListRow, DonationReceipt, DonationView } from '@pm/protocol/donation';

/** Test data of the donation screens (docs/charity.md "API"), paise: a paid ₹101 guest donation to the fixture campaign. */
export function donationFixture(over: Partial<DonationView> = {}): DonationView {
  return {
    orderId: 'order-9',
    status: 'PAID',
    campaign: { id: 'c-1', title: { en: 'Books for Asha', hi: 'आशा के लिए किताबें' } },
    amount: 101_00,
    share: 6_06,
    toCampaign: 94_94,
    name: 'Asha Devi',
    anonymous: false,
    foreign: false,
    country: null,
    createdAt: Date.UTC(2026, 4, 10, 6, 0),
    paidAt: Date.UTC(2026, 4, 10, 6, 1),
    receiptNo: 'PMT/2026-27/7',
    ...over,
  };
}

export function receiptFixture(over: Partial<DonationReceipt> = {}): DonationReceipt & { link: string } {
  return {
    receiptNo: 'PMT/2026-27/7',
    financialYear: '2026-27',
    trust: { name: { en: 'Pariksha Mitra Trust', hi: 'परीक्षा मित्र ट्रस्ट' }, address: '1 Trust Road, Jaipur', registrationNo: 'REG-1', pan: 'AAATP0000D', approval80g: 'DEMO80G20200001' },
    donor: { name: 'Asha Devi', address: '1 MG Road, Jaipur', pan: 'ABCDE1234F', email: 'asha@example.com', mobile: '9812345678' },
    campaign: { id: 'c-1', title: { en: 'Books for Asha', hi: 'आशा के लिए किताबें' } },
    amount: 101_00,
    amountInWords: { en: 'One Hundred One Rupees Only', hi: 'एक सौ एक रुपये' },
    mode: 'UPI',
    paidAt: Date.UTC(2026, 4, 10, 6, 1),
    sandbox: true,
    link: 'http://localhost/donations/order-9?t=tok-1',
    ...over,
  };
}

export function listRowFixture(over: Partial<DonationListRow> = {}): DonationListRow {
  return { ...donationFixture(), email: 'asha@example.com', mobile: '9812345678', refundDue: 0, ...over };
}
