import { createPublicKey } from 'node:crypto';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import { and, asc, desc, eq, gt, inArray, isNotNull, lte, notExists, notInArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { PushSubscriptionInput } from '@pm/protocol/push';
import { UNNAMED_PLAN } from '@pm/protocol/payment';
import type { BaseDeps, Deps, Principal } from '../../context';
import type { DB } from '../../db/client';
import { entitlement, entitlementUse, examResult, meta, plan, pushOnce, pushSubscription, question, questionSet, session, tag } from '../../db/schema';
import { affected, afterCommit, first, transaction } from '../../db/transaction';
import { badRequest } from '../../lib/errors';
import { runExclusive } from '../../lib/exclusive';
import { sessionLive } from '../../lib/sessions';
import type { AttemptSubmittedHook } from '../sync/sync.service';
import { type Message, newSets, payloadFor, planEnding, resultReady } from './messages';
import { type PushSender, type SendOptions, webPushSender } from './sender';
import { loadVapid, type Vapid } from './vapid';

/*
 * Web Push (docs/configuration.md "Push messages (Web Push)"). Devices register their subscriptions (PATCH
 * /generic/update-firebase-token); three things send to them:
 *   (a) result ready: a submission that reached the server late (made offline) has been scored;
 *   (b) new sets: a set was published in a subject the learner has taken tests in;
 *   (c) plan ending: the learner's plan ends within three days, once per plan.
 * Sending never blocks and never fails what triggered it: messages go into a bounded in-process
 * queue, after the transaction that caused them has committed, and a few are sent at a time. A
 * subscription the push service answers 404 or 410 for is deleted (the device unsubscribed, or
 * the subscription expired). Other failures are logged and the message is dropped: a missed
 * notification is not worth a retry that would arrive after the learner has opened the app anyway.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A submission arriving this long after it was made was made offline (or on a connection too poor to upload it). */
export const RESULT_PUSH_AFTER_MS = 60_000;
/** Devices kept per person; a new one beyond it replaces the one registered longest ago. */
export const MAX_DEVICES = 10;
/** Messages waiting to be sent at most (beyond it new ones are dropped, with a warning). */
export const MAX_QUEUED = 10_000;
/** Requests to push services in flight at once. */
const CONCURRENCY = 4;
/** Learners told about one run's new sets at most. */
export const MAX_NEW_SET_RECIPIENTS = 5_000;
/** A plan is reminded of when it ends within this. */
export const PLAN_REMINDER_MS = 3 * DAY;
/** A set's publish transaction has committed this long after its `published_at` (the announcement waits for it). */
const PUBLISH_SETTLE_MS = 5_000;
/** `meta` key: the last published set announced ({ at: published_at, id }). */
const ANNOUNCED_KEY = 'push.sets_announced';

/** TTL is in seconds (RFC 8030 §5.2). */
const DAY_S = DAY / 1000;
const OPTIONS: Record<Message['kind'], SendOptions> = {
  // The learner is waiting for it; worth a day on the push service.
  'result-ready': { ttl: DAY_S, urgency: 'normal' },
  // Stale news after two days; one pending "new tests" message replaces another.
  'new-set': { ttl: 2 * DAY_S, urgency: 'low', topic: 'new-sets' },
  'plan-ending': { ttl: DAY_S, urgency: 'normal' },
  // A campaign's withdrawal paid, rejected or failed (docs/charity.md "Withdrawals"): news for days.
  withdrawal: { ttl: 3 * DAY_S, urgency: 'normal' },
};

/**
 * Push services that Web Push browsers use: Chrome, Edge's Chromium, Opera and Samsung Internet
 * (FCM), Firefox (autopush), Edge (WNS), Safari (Apple). A subscription must name one of them
 * over https, so that a learner cannot make the server POST to an address of their choosing (an
 * internal service, say); outside production the local push endpoint on the loopback is taken too.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function endpointAllowed(endpoint: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'https:' && PUSH_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) return true;
  return !production && LOOPBACK.has(host) && (url.protocol === 'http:' || url.protocol === 'https:');
}

type Job = { subscriptionId: string; endpoint: string; p256dh: string; auth: string; payload: string; options: SendOptions };

export type PushService = {
  vapid: Vapid;
  /** Queues a message to every device of these people, each in its language. Resolves to how many were queued. */
  notify(personIds: string[], message: Message): Promise<number>;
  /** Resolves once every message queued so far has been sent or given up (tests, shutdown). */
  idle(): Promise<void>;
  /** Settles once the announcement watermark is in `meta` (written when the service is made). */
  watermark: Promise<void>;
};

/**
 * The push service of an app (compose.ts makes one, deps.push): its VAPID keys (generated into
 * DATA_DIR on first start) and its send queue. `sender` is web-push's real sender unless a caller
 * passes another.
 */
export function createPushService(deps: BaseDeps, opts: { sender?: PushSender } = {}): PushService {
  const vapid = loadVapid(deps.config);
  const send = opts.sender ?? webPushSender(vapid);
  const waiting: Job[] = [];
  let active = 0;
  let idleWaiters: (() => void)[] = [];

  const settle = () => {
    if (active > 0 || waiting.length > 0) return;
    const w = idleWaiters;
    idleWaiters = [];
    for (const resolve of w) resolve();
  };

  async function run(job: Job) {
    const r = await send({ endpoint: job.endpoint, keys: { p256dh: job.p256dh, auth: job.auth } }, job.payload, job.options);
    if (r.status >= 200 && r.status < 300) return;
    const host = safeHost(job.endpoint);
    if (r.status === 404 || r.status === 410) {
      // Gone for good. Only this registration: the device may have sent new keys for the same endpoint meanwhile.
      await deps.db
        .delete(pushSubscription)
        .where(and(eq(pushSubscription.id, job.subscriptionId), eq(pushSubscription.endpoint, job.endpoint), eq(pushSubscription.p256dh, job.p256dh)));
      deps.log.info({ host, status: r.status }, 'push subscription gone; removed');
      return;
    }
    deps.log.warn({ host, status: r.status, error: r.error }, 'push message not delivered');
  }

  function pump() {
    while (active < CONCURRENCY && waiting.length > 0) {
      const job = waiting.shift()!;
      active++;
      run(job)
        .catch((err: unknown) => deps.log.error({ err }, 'push send failed'))
        .finally(() => {
          active--;
          pump();
          settle();
        });
    }
  }

  // Sets published before this point are not news to anyone (and never announced). Started here
  // (on SQLite the row is written before this returns), awaited by announceNewSets; a failure
  // shows there.
  const watermark = deps.db
    .insert(meta)
    .values({ key: ANNOUNCED_KEY, value: JSON.stringify({ at: Date.now(), id: '' }) })
    .onConflictDoNothing()
    .then(() => undefined);
  watermark.catch(() => undefined);

  return {
    vapid,
    watermark,
    async notify(personIds, message) {
      if (personIds.length === 0) return 0;
      let queued = 0;
      let dropped = 0;
      // In chunks: SQLite takes a bounded number of parameters per statement.
      for (let i = 0; i < personIds.length; i += 500) {
        const rows = await deps.db
          .select()
          .from(pushSubscription)
          .where(inArray(pushSubscription.personId, personIds.slice(i, i + 500)));
        for (const s of rows) {
          if (waiting.length >= MAX_QUEUED) {
            dropped++;
            continue;
          }
          const payload = JSON.stringify(payloadFor(message, s.lang));
          waiting.push({ subscriptionId: s.id, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, payload, options: OPTIONS[message.kind] });
          queued++;
        }
      }
      if (dropped > 0) deps.log.warn({ dropped, kind: message.kind }, 'push queue full; messages dropped');
      // Off the caller's stack: the request or job that caused the message goes on at once.
      if (queued > 0) setImmediate(pump);
      return queued;
    },
    idle() {
      if (active === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

function safeHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '?';
  }
}

// ── Subscriptions ────────────────────────────────────────────────────────────────────────────

/** Whether a base64url string is a point on P-256 (the zod schema checks only its form). */
function isP256Point(p256dh: string): boolean {
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return false;
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/**
 * PATCH /generic/update-firebase-token: stores this device's subscription for the caller, bound to
 * the session that sends it (docs/security.md "Sessions and logout"). One conditional write: an endpoint held by another
 * person stays theirs while the session that registered it lives, and the answer is the same
 * either way, so that a caller learns nothing about whose it is. The same person sending it again
 * replaces the keys and the language (and moves it to this session). A person keeps their
 * MAX_DEVICES most recently registered devices.
 */
export async function saveSubscription(deps: Deps, actor: Principal, input: PushSubscriptionInput, now = Date.now()) {
  if (!endpointAllowed(input.endpoint, deps.config.NODE_ENV === 'production')) throw badRequest('This push service is not supported');
  if (!isP256Point(input.keys.p256dh)) throw badRequest('keys.p256dh is not a P-256 public key');
  const holder = alias(session, 'holder');
  const keys = { p256dh: input.keys.p256dh.replace(/=+$/, ''), auth: input.keys.auth.replace(/=+$/, ''), lang: input.lang ?? null };
  await transaction(deps.db, async (tx) => {
    await tx
      .insert(pushSubscription)
      .values({ personId: actor.id, sessionId: actor.sessionId, endpoint: input.endpoint, ...keys, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: pushSubscription.endpoint,
        set: { personId: actor.id, sessionId: actor.sessionId, ...keys, updatedAt: now },
        // A row whose session has ended (expired, or revoked by a password reset or a status
        // change) no longer belongs to anyone's device.
        setWhere: or(
          eq(pushSubscription.personId, actor.id),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(holder)
              .where(and(eq(holder.id, pushSubscription.sessionId), sessionLive(holder, now))),
          ),
        ),
      });
    const kept = tx
      .select({ id: pushSubscription.id })
      .from(pushSubscription)
      .where(eq(pushSubscription.personId, actor.id))
      .orderBy(desc(pushSubscription.updatedAt), desc(pushSubscription.id))
      .limit(MAX_DEVICES);
    await tx.delete(pushSubscription).where(and(eq(pushSubscription.personId, actor.id), notInArray(pushSubscription.id, kept)));
  });
  return { success: true as const };
}

/** DELETE /generic/update-firebase-token {endpoint}: the caller's own registration of it only. */
export async function removeSubscription(deps: Deps, actor: Principal, endpoint: string) {
  await deps.db.delete(pushSubscription).where(and(eq(pushSubscription.endpoint, endpoint), eq(pushSubscription.personId, actor.id)));
  return { success: true as const };
}

// ── (a) Result ready ─────────────────────────────────────────────────────────────────────────

/**
 * The result-ready message, as a hook of the push path (deps.afterSubmit, after scoring; compose.ts):
 * an attempt that became SUBMITTED more than RESULT_PUSH_AFTER_MS after its submission time
 * (bounded by the server, so a device clock cannot fake it) was made offline. The hook runs
 * inside the push's transaction; the message is decided once that has committed
 * (db/transaction.ts afterCommit; nothing when it rolls back), and only if the result row is
 * there (the attempt was scored).
 * An online submission (submitUserResponse, or a device uploading at once) sends nothing: the
 * learner is looking at the result.
 */
export function resultReadyHook(service: PushService): AttemptSubmittedHook {
  return (tx, row, ctx) => {
    if (row.submittedAt === null || ctx.now - row.submittedAt < RESULT_PUSH_AFTER_MS) return false;
    const db = ctx.db;
    const attemptId = row.id;
    afterCommit(tx, () => {
      first(
        db
          .select({ personId: examResult.personId, qsid: examResult.qsid, l: questionSet.l })
          .from(examResult)
          .innerJoin(questionSet, eq(questionSet.id, examResult.qsid))
          // A locked attempt has no result to show yet (docs/payments.md "Without a plan").
          .where(
            and(
              eq(examResult.attemptId, attemptId),
              sql`not exists (select 1 from ${entitlementUse} where ${entitlementUse.attemptId} = ${examResult.attemptId} and ${entitlementUse.overLimit})`,
            ),
          ),
      )
        .then((r) => (r ? service.notify([r.personId], resultReady({ id: r.qsid, l: r.l })) : 0))
        .catch(() => {
          // The database closed meanwhile (shutdown, a test's end): nothing to tell.
        });
    });
    return false;
  };
}

// ── (b) New sets ─────────────────────────────────────────────────────────────────────────────

type Mark = { at: number; id: string };

/** The subject tags (`s`) of a set's questions, with how many of its questions carry each. */
async function subjectsOf(db: DB, set: { q: string[]; sections: (typeof questionSet.$inferSelect)['sections'] }): Promise<Map<string, number>> {
  const ids = distinctSetQuestionIds(set);
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .select({ s: question.s, n: sql<number>`count(*)` })
      .from(question)
      .where(and(inArray(question.id, ids.slice(i, i + 500)), isNotNull(question.s)))
      .groupBy(question.s)) {
      out.set(r.s!, (out.get(r.s!) ?? 0) + r.n);
    }
  }
  return out;
}

/**
 * Tells learners about sets published since the last run, in a subject they have taken tests in
 * (a result in a set whose questions share a subject tag). Runs after the publish job, outside
 * its transaction, from a watermark in `meta` ({published_at, id} of the last set announced),
 * so that every way a set gets published (the job, or an editor saving a set whose time has
 * come) is announced, once, also across restarts; the watermark moves by one conditional UPDATE
 * before anything is sent, so two instances never announce the same sets. A learner with
 * several new sets gets one message. Bounded: 50 sets and MAX_NEW_SET_RECIPIENTS learners a run.
 * Returns how many messages were queued.
 */
export async function announceNewSets(deps: Deps, now = Date.now()): Promise<number> {
  const service = deps.push;
  await service.watermark;
  const db = deps.db;
  const row = await first(db.select().from(meta).where(eq(meta.key, ANNOUNCED_KEY)));
  if (!row) return 0;
  const mark = JSON.parse(row.value) as Mark;
  const sets = await db
    .select({ id: questionSet.id, l: questionSet.l, q: questionSet.q, sections: questionSet.sections, publishedAt: questionSet.publishedAt })
    .from(questionSet)
    .where(
      and(
        eq(questionSet.published, true),
        eq(questionSet.deleted, false),
        lte(questionSet.publishedAt, now - PUBLISH_SETTLE_MS),
        or(gt(questionSet.publishedAt, mark.at), and(eq(questionSet.publishedAt, mark.at), gt(questionSet.id, mark.id))),
      ),
    )
    .orderBy(asc(questionSet.publishedAt), asc(questionSet.id))
    .limit(50);
  const last = sets.at(-1);
  if (!last) return 0;
  const next = JSON.stringify({ at: last.publishedAt ?? now, id: last.id } satisfies Mark);
  if (affected(await db.update(meta).set({ value: next }).where(and(eq(meta.key, ANNOUNCED_KEY), eq(meta.value, row.value)))) !== 1) return 0;

  // The sets learners with a device have results in, by subject.
  const withDevice = sql`exists (select 1 from ${pushSubscription} where ${pushSubscription.personId} = ${examResult.personId})`;
  const taken = (await db.selectDistinct({ qsid: examResult.qsid }).from(examResult).where(and(eq(examResult.deleted, false), withDevice))).map((r) => r.qsid);
  const subjectsOfTaken = new Map<string, Map<string, number>>();
  for (const qsid of taken) {
    const s = await first(db.select({ q: questionSet.q, sections: questionSet.sections }).from(questionSet).where(eq(questionSet.id, qsid)));
    if (s) subjectsOfTaken.set(qsid, await subjectsOf(db, s));
  }

  // Learner → the new sets for them, and the subject the first one shares.
  const forPerson = new Map<string, { sets: { id: string; l: string }[]; subject: string }>();
  for (const set of sets) {
    const subjects = await subjectsOf(db, set);
    if (subjects.size === 0) continue;
    const matching = [...subjectsOfTaken].filter(([qsid, s]) => qsid !== set.id && [...s.keys()].some((x) => subjects.has(x))).map(([qsid]) => qsid);
    if (matching.length === 0) continue;
    // The new set's subjects, most of its questions first: the message names the first one the learner shares.
    const bySize = [...subjects].sort((a, b) => b[1] - a[1]).map(([s]) => s);
    const people = await db
      .selectDistinct({ personId: examResult.personId })
      .from(examResult)
      .where(and(inArray(examResult.qsid, matching.slice(0, 500)), eq(examResult.deleted, false), withDevice))
      .limit(MAX_NEW_SET_RECIPIENTS);
    for (const { personId } of people) {
      const entry = forPerson.get(personId);
      if (entry) entry.sets.push({ id: set.id, l: set.l });
      else if (forPerson.size < MAX_NEW_SET_RECIPIENTS) {
        const shared = bySize.find((x) => matching.some((qsid) => subjectsOfTaken.get(qsid)?.has(x))) ?? bySize[0]!;
        forPerson.set(personId, { sets: [{ id: set.id, l: set.l }], subject: shared });
      }
    }
  }

  const names = new Map(
    (
      await db
        .select({ tid: tag.tid, tags: tag.tags })
        .from(tag)
        .where(and(eq(tag.key, 's'), eq(tag.deleted, false)))
    ).map((t) => [t.tid, t.tags]),
  );
  let queued = 0;
  for (const [personId, { sets: theirs, subject }] of forPerson) {
    const n = names.get(subject);
    queued += await service.notify([personId], newSets(theirs, n ? { en: n.en ?? subject, hi: n.hi ?? n.en ?? subject } : null));
  }
  return queued;
}

// ── (c) Plan ending ──────────────────────────────────────────────────────────────────────────

/** India Standard Time is UTC+5:30 all year. */
const IST_OFFSET_MS = 5.5 * HOUR;
/** Reminders go out between 09:00 and 21:00 in India, never at night. */
export function isDaytimeInIndia(now: number): boolean {
  const hour = new Date(now + IST_OFFSET_MS).getUTCHours();
  return hour >= 9 && hour < 21;
}

/**
 * Reminds learners whose plan ends within PLAN_REMINDER_MS and is not followed by another (a
 * renewal ending later), once per plan: the `push_once` row `plan-ending:<entitlement>` is claimed
 * with INSERT … ON CONFLICT DO NOTHING before the message is queued. Plans shorter than the
 * reminder window are not reminded of (they were bought knowing). Only learners with a device
 * are looked at, and only in the daytime in India; the job runs hourly, so a plan is reminded of
 * within its first daytime hour inside the window. Returns how many messages were queued.
 */
export async function remindPlansEnding(deps: Deps, now = Date.now()): Promise<number> {
  if (!isDaytimeInIndia(now)) return 0;
  const service = deps.push;
  const db = deps.db;
  const later = alias(entitlement, 'later');
  const due = await db
    .select({ id: entitlement.id, personId: entitlement.personId, endsAt: entitlement.endsAt, planCode: entitlement.planCode })
    .from(entitlement)
    .where(
      and(
        gt(entitlement.endsAt, now),
        lte(entitlement.endsAt, now + PLAN_REMINDER_MS),
        lte(entitlement.startsAt, sql`${entitlement.endsAt} - ${PLAN_REMINDER_MS}`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(later)
            .where(and(eq(later.personId, entitlement.personId), gt(later.endsAt, entitlement.endsAt))),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(pushOnce)
            .where(eq(pushOnce.key, sql`'plan-ending:' || ${entitlement.id}`)),
        ),
        sql`exists (select 1 from ${pushSubscription} where ${pushSubscription.personId} = ${entitlement.personId})`,
      ),
    )
    .limit(1000);
  let queued = 0;
  for (const e of due) {
    const claimed = await first(
      db
        .insert(pushOnce)
        .values({ key: `plan-ending:${e.id}`, personId: e.personId, createdAt: now })
        .onConflictDoNothing()
        .returning({ key: pushOnce.key }),
    );
    if (!claimed) continue;
    const p = await first(db.select({ name: plan.name }).from(plan).where(eq(plan.code, e.planCode)).limit(1));
    const name = p?.name ?? UNNAMED_PLAN;
    queued += await service.notify([e.personId], planEnding({ name, endsAt: e.endsAt, entitlementId: e.id, days: Math.ceil((e.endsAt - now) / DAY) }));
  }
  return queued;
}

/**
 * The push jobs (index.ts): new sets every `setsEveryMs` (the publish job's interval), plan
 * reminders every hour. A failure is logged and the next run tries again. Every run starts in a
 * turn of the event loop of its own (the first ones too: setImmediate), so that its statements
 * never meet another job's transaction begun in the same turn.
 */
export function startPushJobs(deps: Deps, opts: { setsEveryMs: number; plansEveryMs?: number }): () => void {
  // Once across instances (lib/exclusive).
  const guarded = (name: string, everyMs: number, job: () => Promise<unknown>) => () => {
    runExclusive(deps.db, name, job, { everyMs }).catch((err: unknown) => deps.log.error({ err }, `${name} failed`));
  };
  const sets = guarded('new-set announcement', opts.setsEveryMs, () => announceNewSets(deps));
  const plans = guarded('plan reminder', opts.plansEveryMs ?? HOUR, () => remindPlansEnding(deps));
  const i1 = setImmediate(sets);
  const i2 = setImmediate(plans);
  const t1 = setInterval(sets, opts.setsEveryMs);
  const t2 = setInterval(plans, opts.plansEveryMs ?? HOUR);
  t1.unref();
  t2.unref();
  return () => {
    clearImmediate(i1);
    clearImmediate(i2);
    clearInterval(t1);
    clearInterval(t2);
  };
}
