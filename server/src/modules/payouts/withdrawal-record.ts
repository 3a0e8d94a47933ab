import { and, eq } from 'drizzle-orm';
import type { WithdrawalStatus } from '@pm/protocol/payout';
import { MSG } from '@pm/protocol/messages';
import type { Conn } from '../../db/client';
import { lockRows } from '../../db/dialect';
import { withdrawal, withdrawalEvent } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Actor, logActivity } from '../../lib/activity';
import { AppError, notFound } from '../../lib/errors';
import type { WithdrawalRow } from './withdrawal-view';
import { nextStatus, type WithdrawalMove } from './withdrawals.machine';

/*
 * How a withdrawal changes (docs/charity.md "Withdrawals"): one conditional write of the status it
 * was read with, its history entry and its activity entry, in the caller's transaction.
 */

/** The move is not allowed from the withdrawal's status: 409, with the status it has. */
export const moveRefused = (status: string) => new AppError('CONFLICT', MSG.withdrawalMoveNotAllowed, { status });

/** The withdrawal, its row locked for the transaction (PostgreSQL; SQLite's transactions take turns). */
export async function lockedWithdrawal(tx: Conn, id: string): Promise<WithdrawalRow> {
  await lockRows(tx, withdrawal, eq(withdrawal.id, id));
  const row = await first(tx.select().from(withdrawal).where(eq(withdrawal.id, id)));
  if (!row) throw notFound(MSG.withdrawalNotFound);
  return row;
}

/** A history entry (actor null: the payout provider); call inside the transaction of the change. */
export async function recordEvent(tx: Conn, id: string, action: string, from: string | null, to: string, note: string | null, actor: Actor, at: number) {
  await tx.insert(withdrawalEvent).values({ withdrawalId: id, action, fromStatus: from, toStatus: to, note, actorId: actor?.id ?? null, actorName: actor?.name ?? null, createdAt: at });
}

/**
 * Applies `move` to the withdrawal read as `row` (withdrawals.machine.ts), with `set` besides the
 * status; 409 when the machine refuses it or the status changed meanwhile.
 */
export async function applyMove(
  tx: Conn,
  row: WithdrawalRow,
  move: WithdrawalMove,
  actor: Actor,
  note: string | null,
  set: Partial<typeof withdrawal.$inferInsert> = {},
  at = Date.now(),
): Promise<WithdrawalRow> {
  const from = row.status as WithdrawalStatus;
  const to = nextStatus(from, move);
  if (!to) throw moveRefused(from);
  const moved = await first(
    tx
      .update(withdrawal)
      .set({ ...set, status: to, updatedAt: at })
      .where(and(eq(withdrawal.id, row.id), eq(withdrawal.status, from)))
      .returning(),
  );
  if (!moved) throw moveRefused(from);
  await recordEvent(tx, row.id, move, from, to, note, actor, at);
  await logActivity(tx, {
    actor,
    action: 'UPDATE',
    entity: 'withdrawal',
    entityId: row.id,
    oldValue: { status: from },
    newValue: { status: to, move, ...(note !== null && { note }), ...set },
  });
  return moved;
}
