import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { session } from '../../db/schema';
import { sessionLive } from '../../lib/sessions';

/*
 * The per-person SMS key (docs/sms.md "The key"): what a device signs its answer codes with. It is
 * derived, never stored: HMAC-SHA256 of the session's id under the server's secret (JWT_SECRET,
 * with a label of its own so that no token signature can ever equal a key), cut to 128 bits. One
 * key per session: a new sign-in gives a new key, and a session that ends (logout, log out of all
 * devices, a password change, an admin reset, expiry) takes its key with it, because the server
 * only tries the keys of the sender's live sessions.
 */

/** Tells this derivation from every other use of the secret. */
const LABEL = 'pariksha-mitra/sms-answer-key/1';
export const SMS_KEY_BYTES = 16;

/** The key of one session. */
export function smsKeyOf(secret: Uint8Array, sessionId: string): Uint8Array {
  const mac = createHmac('sha256', secret).update(`${LABEL}\0${sessionId}`).digest();
  return new Uint8Array(mac.subarray(0, SMS_KEY_BYTES));
}

/** The keys of a person's live sessions (lib/sessions.ts sessionLive): the only keys a code may be signed with. */
export async function liveKeysOf(db: Conn, secret: Uint8Array, personId: string, now = Date.now()): Promise<{ sessionId: string; key: Uint8Array }[]> {
  const rows = await db
    .select({ id: session.id })
    .from(session)
    .where(and(eq(session.personId, personId), sessionLive(session, now)));
  return rows.map((r) => ({ sessionId: r.id, key: smsKeyOf(secret, r.id) }));
}
