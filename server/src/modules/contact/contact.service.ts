import { count, desc, eq, or, type SQL } from 'drizzle-orm';
import type { ContactMessage } from '@pm/protocol/contact';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { containsText, insertionOrder } from '../../db/dialect';
import { contactMessage } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { notFound } from '../../lib/errors';

/** POST /generic/submit-contact-details; the messages are listed for admins in the back office. */
export async function submitContact(deps: Deps, input: { name: string; email: string | null; mobile: string; description: string }) {
  const row = (await first(deps.db.insert(contactMessage).values(input).returning({ id: contactMessage.id })))!;
  return { success: true as const, id: row.id, msg: MSG.contactPosted };
}

/** GET /api/generic/contact-messages: newest first, searchable by name, mobile, e-mail or text. */
export async function listMessages(deps: Deps, input: { q: string; limit: number; offset: number }) {
  let where: SQL | undefined;
  if (input.q) {
    const q = input.q;
    where = or(
      containsText(deps.db, contactMessage.name, q),
      containsText(deps.db, contactMessage.mobile, q),
      containsText(deps.db, contactMessage.email, q),
      containsText(deps.db, contactMessage.description, q),
    );
  }
  const data: ContactMessage[] = await deps.db
    .select()
    .from(contactMessage)
    .where(where)
    .orderBy(desc(contactMessage.createdAt), desc(insertionOrder(deps.db, contactMessage)))
    .limit(input.limit)
    .offset(input.offset);
  const total = (await first(deps.db.select({ n: count() }).from(contactMessage).where(where)))?.n ?? 0;
  return { success: true as const, data, total };
}

export async function deleteMessage(deps: Deps, actor: Principal, id: string) {
  await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(contactMessage).where(eq(contactMessage.id, id)));
    if (!before) throw notFound(MSG.messageNotFound);
    await tx.delete(contactMessage).where(eq(contactMessage.id, id));
    await logActivity(tx, { actor, action: 'DELETE', entity: 'contact_message', entityId: id, oldValue: before });
  });
  return { success: true as const, msg: MSG.messageDeleted };
}
