import { paths } from '@/config/paths';

/** The payout screens' addresses (docs/charity.md "The withdrawal screens"), under My campaigns. */
export const payoutAccountsPath = `${paths.myCampaigns}/payout-accounts`;

export const withdrawPath = (campaignId: string) => `${paths.myCampaigns}/${encodeURIComponent(campaignId)}/withdraw`;
