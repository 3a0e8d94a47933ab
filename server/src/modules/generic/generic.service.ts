import { MSG } from '../../../../sync-protocol/src/messages';
import type { Deps } from '../../context';
import { contactMessage } from '../../db/schema';
import { first } from '../../db/transaction';

/** POST /generic/submit-contact-details; the messages are listed for admins in the back office. */
export async function submitContact(deps: Deps, input: { name: string; email: string | null; mobile: string; description: string }) {
  const row = (await first(deps.db.insert(contactMessage).values(input).returning({ id: contactMessage.id })))!;
  return { success: true as const, id: row.id, msg: MSG.contactPosted };
}
