import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { DB } from '../db/client';
import { rateLimit } from '../db/schema';
import { tooMany } from './errors';

/*
 * Counters live in the database (rate-limiter-flexible's Drizzle store) rather than in memory, so
 * that a second server instance sees the same counts (ARCHITECTURE decision 7).
 */
const RULES = {
  /** Failed logins, OTP sign-ins and code checks: only failures count. */
  loginAccount: { points: 10, duration: 15 * 60 },
  loginIp: { points: 50, duration: 15 * 60 },
  /** Requests that send a code (OTP, reset). */
  codeAccount: { points: 5, duration: 60 * 60 },
  codeIp: { points: 30, duration: 60 * 60 },
  /** Anonymous look-ups (referrer by mobile) and contact messages. */
  lookupIp: { points: 60, duration: 60 },
} as const;
export type RateRule = keyof typeof RULES;

export type RateLimits = {
  /** Counts one request; 429 once the rule's budget is spent. */
  consume: (rule: RateRule, key: string) => Promise<void>;
  /** 429 if the budget is already spent, without counting. */
  check: (rule: RateRule, key: string) => Promise<void>;
  /** Counts one failure without throwing. */
  penalise: (rule: RateRule, key: string) => Promise<void>;
};

export function createRateLimits(db: DB): RateLimits {
  const limiters = Object.fromEntries(
    Object.entries(RULES).map(([name, r]) => [
      name,
      new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimit,
        keyPrefix: name,
        points: r.points,
        duration: r.duration,
        clearExpiredByTimeout: false,
      }),
    ]),
  ) as Record<RateRule, RateLimiterDrizzle>;
  return {
    async consume(rule, key) {
      try {
        await limiters[rule].consume(key);
      } catch (e) {
        if (e instanceof RateLimiterRes) throw tooMany();
        throw e;
      }
    },
    async check(rule, key) {
      const res = await limiters[rule].get(key);
      if (res && res.consumedPoints >= RULES[rule].points) throw tooMany();
    },
    async penalise(rule, key) {
      await limiters[rule].penalty(key, 1);
    },
  };
}
