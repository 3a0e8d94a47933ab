import { GRIEVANCE_REOPEN_DAYS, type GrievanceStatus } from '@pm/protocol/grievance';

/*
 * A grievance's state machine (docs/charity.md "Grievances"): its states, the moves, who makes
 * each and from where, nothing else. The service applies a move as one conditional write of the
 * status the grievance was read with, with its message and its activity entry in the same
 * transaction.
 *
 *   OPEN | ANSWERED ──reply (staff)──▶ ANSWERED
 *   OPEN | ANSWERED ──write (raiser)──▶ OPEN           (the raiser's turn is over: staff's again)
 *   OPEN | ANSWERED ──resolve (staff, with a note)──▶ RESOLVED
 *   RESOLVED ──reopen (raiser, within 30 days of the resolution)──▶ OPEN
 *
 * Anything else is refused (409) and changes nothing: writing to a resolved grievance (reopen it
 * first), resolving one twice, reopening an open one or one resolved more than 30 days ago.
 */

export type GrievanceMove = 'reply' | 'write' | 'resolve' | 'reopen';
export type GrievanceMover = 'staff' | 'raiser';

type Rule = { from: readonly GrievanceStatus[]; to: GrievanceStatus; by: GrievanceMover };

export const GRIEVANCE_MOVES: Readonly<Record<GrievanceMove, Rule>> = {
  reply: { from: ['OPEN', 'ANSWERED'], to: 'ANSWERED', by: 'staff' },
  write: { from: ['OPEN', 'ANSWERED'], to: 'OPEN', by: 'raiser' },
  resolve: { from: ['OPEN', 'ANSWERED'], to: 'RESOLVED', by: 'staff' },
  reopen: { from: ['RESOLVED'], to: 'OPEN', by: 'raiser' },
};

export const REOPEN_WINDOW_MS = GRIEVANCE_REOPEN_DAYS * 86_400_000;

/** Why a move is refused: not from this status, or the reopen window has passed. */
export type Refusal = 'status' | 'reopen-expired';

/**
 * The status a move leads to, or why it may not be made. `resolvedAt` is when the grievance was
 * resolved (for a reopen), `now` the time of the move.
 */
export function decideMove(status: GrievanceStatus, move: GrievanceMove, resolvedAt: number | null, now: number): { to: GrievanceStatus } | { refused: Refusal } {
  const rule = GRIEVANCE_MOVES[move];
  if (!rule.from.includes(status)) return { refused: 'status' };
  if (move === 'reopen' && (resolvedAt === null || now - resolvedAt > REOPEN_WINDOW_MS)) return { refused: 'reopen-expired' };
  return { to: rule.to };
}

/** Until when a resolved grievance may be reopened; null for one that is not resolved. */
export const reopenUntil = (status: GrievanceStatus, resolvedAt: number | null) => (status === 'RESOLVED' && resolvedAt !== null ? resolvedAt + REOPEN_WINDOW_MS : null);

/** India's time, in which a "calendar month" is counted (docs/charity.md "Grievances"). */
const IST_MS = 5.5 * 3_600_000;

/**
 * One calendar month after `ms` in India's time (the terms: a grievance is resolved within one
 * month): the same day of the next month at the same time, or that month's last day when it has
 * no such day (31 January → 28 or 29 February).
 */
export function oneMonthAfter(ms: number): number {
  const d = new Date(ms + IST_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()) - IST_MS;
}
