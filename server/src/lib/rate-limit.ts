import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Conn, DB } from '../db/client';
import { rateLimit } from '../db/schema';
import { first, transaction } from '../db/transaction';
import { tooMany } from './errors';

/*
 * Every limit of the platform, in one table (docs/security.md "Every limit"). A rule allows `points` requests per
 * fixed window of `duration` seconds and key. Counters live in the `rate_limit` table, not in
 * memory, so that a second server instance shares them (ARCHITECTURE decision 7).
 *
 * A budget is spent BEFORE the work it guards, by one conditional upsert (CONVENTIONS rule 12), so
 * N parallel requests can never get more than `points` through. Rules that count only failures
 * (the guessing rules) give the point back when the attempt succeeded (`refund`).
 *
 * "Account" keys are the username as written and normalised (+91 mobile, lower-case e-mail), not
 * the person's id: an unknown username then has a budget exactly like a registered one, and the
 * budgets of a person's mobile and of their e-mail are separate, so that running out of one cannot
 * tell an attacker that the two belong to the same account. The price is that an account with both
 * a mobile and an e-mail allows twice the numbers below.
 */
export const RULES = {
  /**
   * Wrong passwords per (username, IP) pair in 15 minutes. What used to be the account's budget,
   * now bound to the pair (OWASP authentication cheat sheet): an attacker who spends it locks out
   * only their own address, not the owner of the account.
   */
  loginPair: { points: 10, duration: 15 * 60 },
  /**
   * Wrong passwords per username from all addresses in 15 minutes: a ceiling against guessing
   * spread over many addresses, ten times the pair's, so reaching it takes at least ten. While it
   * holds, the owner still signs in with a one-time code by SMS (its budgets are separate).
   */
  loginAccount: { points: 100, duration: 15 * 60 },
  /**
   * Wrong credentials of any kind (password, reset code, OTP) per IP in 15 minutes: one address
   * trying many accounts (credential stuffing).
   */
  authFailIp: { points: 50, duration: 15 * 60 },
  /**
   * Wrong one-time codes per (purpose, username, IP) in 15 minutes. Exactly one code is tested per
   * request, so this is the number of guesses.
   */
  codePair: { points: 10, duration: 15 * 60 },
  /**
   * Wrong one-time codes per (purpose, username) from all addresses in an hour: at most 30 of the
   * 10^6 codes per hour (and a code lives 10 minutes), a 1 in 33,000 chance per hour.
   */
  codeAccount: { points: 30, duration: 60 * 60 },
  /** Messages with a code (OTP, reset) per (purpose, username, IP) in an hour. */
  sendPair: { points: 3, duration: 60 * 60 },
  /**
   * Messages with a code per (purpose, username) from all addresses in an hour: protects the
   * owner's phone and inbox (and our SMS bill) from a flood; higher than the pair's, so denying
   * the owner their codes takes several addresses.
   */
  sendAccount: { points: 10, duration: 60 * 60 },
  /** Messages with a code requested per IP in an hour, whatever the account. */
  sendIp: { points: 30, duration: 60 * 60 },
  /**
   * Signups per IP in an hour. Generous enough for a class signing up behind one school router;
   * signup sends no message, so the risk is only bulk accounts.
   */
  signupIp: { points: 30, duration: 60 * 60 },
  /**
   * Accounts created on someone's behalf per actor in an hour. Each one sends an SMS (and e-mail)
   * with a password to an address the actor chose; a learner used this to send 40.
   */
  onBehalfActor: { points: 10, duration: 60 * 60 },
  /** The same per IP, so that several accounts of one sender do not multiply it freely. */
  onBehalfIp: { points: 30, duration: 60 * 60 },
  /** Anonymous look-ups (referrer by mobile) and contact messages per IP in a minute. */
  lookupIp: { points: 60, duration: 60 },
  /** Content-Security-Policy violation reports per IP in a minute (modules/csp-report). */
  cspReportIp: { points: 60, duration: 60 },
  /**
   * Image uploads per editor in an hour (modules/media): a busy editor pastes a few images per
   * question; each upload may keep up to 1 MiB on disk for good (same bytes are stored once).
   */
  mediaPerson: { points: 120, duration: 60 * 60 },
  /**
   * Campaign image uploads per person in an hour (modules/campaigns; docs/charity.md): a campaign
   * shows ten and each update ten; each upload may keep up to 5 MiB on disk for good.
   */
  campaignImagePerson: { points: 60, duration: 60 * 60 },
  /**
   * Reports of campaigns ("this looks wrong", docs/charity.md "Grievances") per source in an hour:
   * the IP, and the person too when signed in. Each report lands in the trustees' queue, so a
   * flood of them would bury the real ones.
   */
  campaignReport: { points: 10, duration: 60 * 60 },
  /**
   * Answer-file uploads per IP in an hour (docs/answer-file.md, modules/answer-file): public, as an
   * invigilator uploads the files of a whole exam centre from one address; each costs a
   * decryption and may cost a scoring.
   */
  /**
   * Answer codes by SMS whose MAC was wrong, per sending mobile in a day (docs/sms.md "Answers by
   * SMS"): with a 32-bit MAC, at most 20 × 2^-32 chances a day of a forgery passing, about one in
   * 200 million, and the number must be the person's own, which SMS spoofing alone cannot give.
   */
  smsAnswerNumber: { points: 20, duration: 24 * 60 * 60 },
  answerFileIp: { points: 300, duration: 60 * 60 },
} as const satisfies Record<string, { points: number; duration: number }>;
export type RateRule = keyof typeof RULES;

/** One budget: a rule and the key it is counted under. */
export type Limit = readonly [rule: RateRule, key: string];

export type RateLimits = {
  /** Spends one point of a budget; 429 (nothing spent) when it is already used up. */
  consume: (rule: RateRule, key: string, conn?: Conn) => Promise<void>;
  /**
   * Spends one point of each budget, all or none in one transaction: 429 (nothing spent) when any
   * of them is used up. Only database work, so it can also run inside the transaction that does
   * the work: pass that transaction's handle as `conn` (it then nests as a savepoint).
   */
  consumeAll: (limits: readonly Limit[], conn?: Conn) => Promise<void>;
  /** Gives back the points of a request that succeeded, for rules that count only failures. */
  refund: (limits: readonly Limit[], conn?: Conn) => Promise<void>;
};

/** Expired rows are deleted at most this often, by whichever request comes along. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export function createRateLimits(db: DB): RateLimits {
  let lastSweep = 0;

  /** One point, one statement: the row is created, restarted after its window, or counted up to `points` — never past. */
  async function spend(conn: Conn, rule: RateRule, key: string, now: number): Promise<boolean> {
    const { points, duration } = RULES[rule];
    const expire = now + duration * 1000;
    // Times through the column (a Date: epoch milliseconds on SQLite, timestamptz on PostgreSQL).
    const expired = or(isNull(rateLimit.expire), lte(rateLimit.expire, new Date(now)))!;
    const row = await first(
      conn
        .insert(rateLimit)
        .values({ key: `${rule}:${key}`, points: 1, expire: new Date(expire) })
        .onConflictDoUpdate({
          target: rateLimit.key,
          set: {
            points: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimit.points} + 1 END`,
            expire: sql`CASE WHEN ${expired} THEN excluded.expire ELSE ${rateLimit.expire} END`,
          },
          // The budget check itself: when the row is live and full, nothing is written or returned.
          setWhere: sql`${expired} OR ${rateLimit.points} < ${points}`,
        })
        .returning({ points: rateLimit.points }),
    );
    return row !== undefined;
  }

  /** Through `conn`: inside a caller's transaction, the database handle must not be used. */
  async function sweep(conn: Conn, now: number) {
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await conn.delete(rateLimit).where(lt(rateLimit.expire, new Date(now)));
  }

  async function consumeAll(limits: readonly Limit[], conn: Conn = db) {
    const now = Date.now();
    await sweep(conn, now);
    await transaction(conn, async (tx) => {
      for (const [rule, key] of limits) {
        // Throwing rolls back the points already spent by this call: a refused request costs nothing.
        if (!(await spend(tx, rule, key, now))) throw tooMany();
      }
    });
  }

  return {
    consume: (rule, key, conn) => consumeAll([[rule, key]], conn),
    consumeAll,
    async refund(limits, conn = db) {
      const now = Date.now();
      for (const [rule, key] of limits) {
        await conn
          .update(rateLimit)
          .set({ points: sql`${rateLimit.points} - 1` })
          .where(and(eq(rateLimit.key, `${rule}:${key}`), sql`${rateLimit.points} > 0`, gt(rateLimit.expire, new Date(now))));
      }
    },
  };
}
