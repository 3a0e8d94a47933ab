import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Conn } from '../db/client';
import { first } from '../db/transaction';
import { oneTimeCode } from '../db/schema';

/** One-time codes are valid for 10 minutes and used once (docs/security.md "Every limit"). */
export const CODE_TTL_MS = 10 * 60 * 1000;

/**
 * EMAIL: the code sent to a new e-mail address before it replaces the old one (docs/api.md
 * "Profile"); MOBILE: the code that verifies the person's mobile (docs/sms.md "Every code by SMS").
 */
export type CodePurpose = 'OTP' | 'RESET' | 'EMAIL' | 'MOBILE';

function digest(secret: Uint8Array, personId: string, code: string): string {
  return createHmac('sha256', secret).update(`${personId}:${code}`).digest('hex');
}

/** Issues a fresh 6-digit code from the CSPRNG; earlier unused codes of the same purpose die. */
export async function issueCode(db: Conn, secret: Uint8Array, personId: string, purpose: CodePurpose): Promise<string> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const now = Date.now();
  await db
    .update(oneTimeCode)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCode.personId, personId), eq(oneTimeCode.purpose, purpose), isNull(oneTimeCode.usedAt)));
  await db.insert(oneTimeCode).values({ personId, purpose, codeHash: digest(secret, personId, code), expiresAt: now + CODE_TTL_MS });
  return code;
}

/** Checks and spends a code. Returns false for a wrong, used or expired code. */
export async function consumeCode(db: Conn, secret: Uint8Array, personId: string, purpose: CodePurpose, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const now = Date.now();
  const row = await first(
    db
      .select()
      .from(oneTimeCode)
      .where(
        and(
          eq(oneTimeCode.personId, personId),
          eq(oneTimeCode.purpose, purpose),
          isNull(oneTimeCode.usedAt),
          gt(oneTimeCode.expiresAt, now),
        ),
      )
      .orderBy(desc(oneTimeCode.createdAt))
      .limit(1),
  );
  if (!row) return false;
  const a = Buffer.from(row.codeHash, 'hex');
  const b = Buffer.from(digest(secret, personId, code), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return false;
  // Spent only if still unused: of two requests with the same code at once, one gets through
  // (PostgreSQL re-reads the row the other has just spent; SQLite runs them one after another).
  const spent = await first(
    db
      .update(oneTimeCode)
      .set({ usedAt: now })
      .where(and(eq(oneTimeCode.id, row.id), isNull(oneTimeCode.usedAt)))
      .returning({ id: oneTimeCode.id }),
  );
  return spent !== undefined;
}
