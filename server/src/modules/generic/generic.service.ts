import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps, Principal } from '../../context';
import { contactMessage, pushToken } from '../../db/schema';

/** POST /generic/submit-contact-details; the messages are listed for admins in the back office. */
export function submitContact(deps: Deps, input: { name: string; email: string | null; mobile: string; description: string }) {
  const row = deps.db.insert(contactMessage).values(input).returning({ id: contactMessage.id }).get();
  return { success: true as const, id: row.id, msg: MSG.contactPosted };
}

/** PATCH /generic/update-firebase-token: a device's push token now belongs to this person. */
export function savePushToken(deps: Deps, actor: Principal, token: string) {
  deps.db
    .insert(pushToken)
    .values({ personId: actor.id, token })
    .onConflictDoUpdate({ target: pushToken.token, set: { personId: actor.id, createdAt: Date.now() } })
    .run();
  return { success: true as const };
}
