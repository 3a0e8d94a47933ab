import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps } from '../../context';
import { contactMessage } from '../../db/schema';

/** POST /generic/submit-contact-details; the messages are listed for admins in the back office. */
export function submitContact(deps: Deps, input: { name: string; email: string | null; mobile: string; description: string }) {
  const row = deps.db.insert(contactMessage).values(input).returning({ id: contactMessage.id }).get();
  return { success: true as const, id: row.id, msg: MSG.contactPosted };
}
