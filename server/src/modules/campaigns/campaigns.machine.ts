import type { CampaignStatus } from '@pm/protocol/campaign';

/*
 * A campaign's state machine (docs/charity.md "A campaign"): its states, the moves, who makes
 * each and from where, nothing else. The service (campaigns.service.ts moveCampaign) applies a
 * move as one conditional write of the status the campaign was read with, with its history entry
 * and its activity entry in the same transaction.
 *
 * Read top to bottom:
 *
 *   DRAFT | REFUSED ──submit (owner or staff; endsAt in the future)──▶ SUBMITTED
 *   SUBMITTED ──approve (trustee)──▶ APPROVED
 *   SUBMITTED ──refuse (trustee, with a reason)──▶ REFUSED
 *   APPROVED ──pause (trustee)──▶ PAUSED
 *   PAUSED ──resume (trustee)──▶ APPROVED
 *   APPROVED | PAUSED ──close (trustee)──▶ CLOSED              (final)
 *   DRAFT | REFUSED ──edit (owner or staff)──▶ DRAFT            (a refused campaign goes back to its owner)
 *
 * Anything else is refused (409) and changes nothing: approving an approved campaign, pausing a
 * draft, editing a submitted or approved one, any move of a closed one.
 */

export type CampaignMove = 'submit' | 'approve' | 'refuse' | 'pause' | 'resume' | 'close' | 'edit';

/** Who makes a move: the campaign's owner or staff (CREATE_CAMPAIGN), or a trustee (APPROVE_CAMPAIGN). */
export type Mover = 'owner-or-staff' | 'trustee';

type Rule = { from: readonly CampaignStatus[]; to: CampaignStatus; by: Mover };

export const MOVES: Readonly<Record<CampaignMove, Rule>> = {
  submit: { from: ['DRAFT', 'REFUSED'], to: 'SUBMITTED', by: 'owner-or-staff' },
  approve: { from: ['SUBMITTED'], to: 'APPROVED', by: 'trustee' },
  refuse: { from: ['SUBMITTED'], to: 'REFUSED', by: 'trustee' },
  pause: { from: ['APPROVED'], to: 'PAUSED', by: 'trustee' },
  resume: { from: ['PAUSED'], to: 'APPROVED', by: 'trustee' },
  close: { from: ['APPROVED', 'PAUSED'], to: 'CLOSED', by: 'trustee' },
  edit: { from: ['DRAFT', 'REFUSED'], to: 'DRAFT', by: 'owner-or-staff' },
};

/** The status a move leads to from `status`, or null when the move is not allowed from there. */
export function nextStatus(status: CampaignStatus, move: CampaignMove): CampaignStatus | null {
  const rule = MOVES[move];
  return rule.from.includes(status) ? rule.to : null;
}

/** Whether the campaign's own fields and images may change (an edit). */
export const editable = (status: CampaignStatus) => nextStatus(status, 'edit') !== null;

/** Whether updates ("what the money bought") may be posted: once the campaign has been approved. */
export const takesUpdates = (status: CampaignStatus) => status === 'APPROVED' || status === 'PAUSED' || status === 'CLOSED';
