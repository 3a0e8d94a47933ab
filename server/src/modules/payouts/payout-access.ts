import type { Principal } from '../../context';
import { seesInside } from '../campaigns/campaign-access';
import type { CampaignRow } from '../campaigns/campaign-view';

/*
 * Who reads a campaign's money side (docs/charity.md "Withdrawals"): its payees, what it may
 * withdraw and its withdrawals. The owner, staff and trustees, as for a campaign's inside; the
 * holders of APPROVE_WITHDRAWAL too.
 */

export const approvesWithdrawals = (p: Principal | null) => p?.permissions.has('APPROVE_WITHDRAWAL') === true;

export const seesCampaignMoney = (p: Principal | null, row: CampaignRow) => seesInside(p, row) || approvesWithdrawals(p);
