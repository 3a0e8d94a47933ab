import { eq } from 'drizzle-orm';
import { PUBLIC_CAMPAIGN_STATUSES, type CampaignStatus } from '@pm/protocol/campaign';
import { MSG } from '@pm/protocol/messages';
import type { Principal } from '../../context';
import type { Conn } from '../../db/client';
import { campaign, person } from '../../db/schema';
import { first } from '../../db/transaction';
import { forbidden, notFound } from '../../lib/errors';
import type { CampaignRow } from './campaign-view';

/*
 * Who may read and change a campaign (docs/charity.md "Who does what"). The access table
 * (access.ts) lets signed-in people reach the owner's routes and trustees the trustees'; which
 * campaign a person may read or change is decided here, per campaign. A campaign a caller may not
 * read is "not found", whether it exists or not: a draft's existence is not told to strangers.
 */

/** Staff: drafts and edits campaigns on a beneficiary's behalf, posts updates, chooses the featured one. */
export const isStaff = (p: Principal | null) => p?.permissions.has('CREATE_CAMPAIGN') === true;
/** Trustees: approve, refuse, pause, resume and close; they read every campaign. */
export const isTrustee = (p: Principal | null) => p?.permissions.has('APPROVE_CAMPAIGN') === true;

export const isPublic = (status: string) => PUBLIC_CAMPAIGN_STATUSES.includes(status as CampaignStatus);
const isOwner = (p: Principal | null, row: CampaignRow) => p !== null && row.beneficiaryId === p.id;

/** Whether the caller reads what only the owner, staff and trustees read (a draft, the history). */
export const seesInside = (p: Principal | null, row: CampaignRow) => isOwner(p, row) || isStaff(p) || isTrustee(p);

export const campaignNotFound = () => notFound(MSG.campaignNotFound);

/** The campaign, if the caller may read it (public, or theirs, or they are staff or a trustee); else 404. */
export async function readableCampaign(db: Conn, p: Principal | null, id: string): Promise<CampaignRow> {
  const row = await first(db.select().from(campaign).where(eq(campaign.id, id)));
  if (!row || !(isPublic(row.status) || seesInside(p, row))) throw campaignNotFound();
  return row;
}

/** The campaign, if the caller may change it as its owner or as staff: 404 when they may not read it, 403 when only read it. */
export async function manageableCampaign(db: Conn, p: Principal, id: string): Promise<CampaignRow> {
  const row = await readableCampaign(db, p, id);
  if (!isOwner(p, row) && !isStaff(p)) throw forbidden();
  return row;
}

/**
 * Whether a campaign's beneficiary may still receive (docs/charity.md "Moderation"): a suspended
 * person's (status other than ACTIVE) campaigns take no donations and request nothing until the
 * suspension is lifted. A campaign whose owner's account was deleted keeps its own status.
 */
export async function beneficiaryActive(db: Conn, beneficiaryId: string | null): Promise<boolean> {
  if (beneficiaryId === null) return true;
  const row = await first(db.select({ status: person.status }).from(person).where(eq(person.id, beneficiaryId)));
  return row?.status === 'ACTIVE';
}
