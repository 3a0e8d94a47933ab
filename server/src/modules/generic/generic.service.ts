import { and, eq, isNotNull, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps, Principal } from '../../context';
import { contactMessage, pushToken, session } from '../../db/schema';
import { sessionLive } from '../../lib/sessions';

/** POST /generic/submit-contact-details; the messages are listed for admins in the back office. */
export function submitContact(deps: Deps, input: { name: string; email: string | null; mobile: string; description: string }) {
  const row = deps.db.insert(contactMessage).values(input).returning({ id: contactMessage.id }).get();
  return { success: true as const, id: row.id, msg: MSG.contactPosted };
}

/**
 * PATCH /generic/update-firebase-token: binds a device's push token to this person and to the
 * session that registers it (issue 16 §4). One conditional write: a token already held by another
 * person stays theirs while the session that registered it lives, and the answer is the same
 * either way, so a caller learns nothing about whose the token is. Logging that session out
 * deletes the row (lib/sessions.ts), and then the next person on the same phone registers it.
 * The same person registering again (a new sign-in on the same phone) moves it to the new session.
 */
export function savePushToken(deps: Deps, actor: Principal, token: string, now = Date.now()) {
  const holder = alias(session, 'holder');
  deps.db
    .insert(pushToken)
    .values({ personId: actor.id, token, sessionId: actor.sessionId, createdAt: now })
    .onConflictDoUpdate({
      target: pushToken.token,
      set: { personId: actor.id, sessionId: actor.sessionId, createdAt: now },
      // A row without a session predates sessions: it stays with its person until they log out
      // everywhere. A row whose session has ended (expired, or revoked by a password reset or a
      // status change) no longer belongs to anyone's device.
      setWhere: or(
        eq(pushToken.personId, actor.id),
        and(
          isNotNull(pushToken.sessionId),
          notExists(
            deps.db
              .select({ one: sql`1` })
              .from(holder)
              .where(and(eq(holder.id, pushToken.sessionId), sessionLive(holder, now))),
          ),
        ),
      ),
    })
    .run();
  return { success: true as const };
}
