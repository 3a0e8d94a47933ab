import type { Campaign, CampaignCard } from './api/types';

/** Test data of the campaign screens (docs/charity.md "API"): an approved campaign with money, and its card. */
const DAY = 86_400_000;

export function campaignFixture(over: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c-1',
    beneficiaryId: 'p-ben',
    beneficiaryName: 'Asha Kumari',
    trustId: 't-1',
    title: { en: 'Books for Asha', hi: 'आशा के लिए किताबें' },
    story: { en: '<p>Asha is in <strong>class 10</strong>.</p><img src="x" onerror="alert(1)">', hi: '<p>आशा दसवीं कक्षा में है।</p>' },
    cause: 'BOOKS',
    need: [
      { what: { en: 'Maths guide', hi: 'गणित गाइड' }, from: 'Sharma Book Depot', amount: 450_00 },
      { what: { en: 'Science kit', hi: '' }, amount: 550_00 },
    ],
    goal: 1000_00,
    endsAt: Date.now() + 10 * DAY,
    images: [{ id: 'img-1', url: '/media/aaa.png' }],
    status: 'APPROVED',
    reason: null,
    createdBy: 'p-ben',
    createdAt: Date.now() - 5 * DAY,
    updatedAt: Date.now() - 5 * DAY,
    submittedAt: Date.now() - 4 * DAY,
    approvedAt: Date.now() - 3 * DAY,
    approvedBy: 'p-trustee',
    raised: 250_00,
    donors: 2,
    updates: [{ id: 'u-1', campaignId: 'c-1', authorId: 'p-ben', authorName: 'Asha Kumari', text: { en: '<p>Bought the maths guide.</p>', hi: '' }, images: [], createdAt: Date.now() - DAY }],
    recentDonations: [
      { name: 'Ravi', amount: 200_00, at: Date.now() - 2 * DAY },
      { name: 'Anonymous', amount: 50_00, at: Date.now() - DAY },
    ],
    ledger: [
      { kind: 'DONATION', at: Date.now() - 2 * DAY, amount: 200_00, gross: 200_00, share: 12_00, net: 188_00, donor: 'Ravi' },
      { kind: 'DONATION', at: Date.now() - DAY, amount: 50_00, gross: 50_00, share: 3_00, net: 47_00, donor: 'Anonymous' },
    ],
    ...over,
  };
}

export function cardFixture(over: Partial<CampaignCard> = {}): CampaignCard {
  const c = campaignFixture();
  return { id: c.id, title: c.title, cause: c.cause, goal: c.goal, raised: c.raised, donors: c.donors, endsAt: c.endsAt, status: c.status, image: '/media/aaa.png', ...over };
}
