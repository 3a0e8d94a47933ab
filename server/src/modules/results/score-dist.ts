import { asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { distributionOf, MIN_RANKED, type RankedMarks } from '@pm/protocol/score-dist';
import type { Deps } from '../../context';
import type { DB } from '../../db/client';
import { attempt, entitlementUse, examResult, meta, scoreDist } from '../../db/schema';
import { first, rows, transaction } from '../../db/transaction';
import { runExclusive } from '../../lib/exclusive';
import { nextRev } from '../../lib/revision';
import { liveOf, type ResultsOpenedHook, START_SKEW_MS } from '../live-tests/live-tests.service';

/*
 * Score distributions (docs/live-tests.md "Provisional rank on the device"): per set, a histogram
 * of the marks of exactly the results GET /question/getRank counts (rankedResults, shared with
 * results.service rank), replicated as `score_dist` so that a device ranks a score it worked out
 * itself. Rebuilt by a job, never per submission: each run rebuilds only the sets with a result
 * written since the previous run (every write of a result takes a new revision: a submission, an
 * evaluation, a plan that opens a locked result), at most MAX_SETS_PER_RUN of them.
 */

/** How often distributions are rebuilt: a submission storm costs one rebuild per set per interval. */
export const DIST_REFRESH_MS = 5 * 60_000;

/** Most sets one run rebuilds; the others wait for the next run (oldest changes first). */
export const MAX_SETS_PER_RUN = 200;

/** `meta` key: the greatest exam_result revision the runs have dealt with. */
const WATERMARK = 'score_dist.rev';

/**
 * A set's ranked results, one row per learner (`total_marks`, `marks`, and `n` = 1 for the one
 * that counts): first attempts (not practice), not deleted, not locked past a plan's allowance
 * (docs/payments.md "Without a plan"). One ranked result per learner by construction (the insert
 * decides `practice`); the window keeps it one per learner whatever the data.
 */
export function rankedResults(qsid: string, also: SQL = sql`1 = 1`): SQL {
  return sql`
    select ${examResult.totalMarks} as total_marks, ${examResult.marks} as marks,
           row_number() over (partition by ${examResult.personId} order by ${examResult.createdAt}, ${examResult.rev}) as n
    from ${examResult}
    where ${examResult.qsid} = ${qsid} and ${eq(examResult.practice, false)} and ${eq(examResult.deleted, false)}
      and not exists (select 1 from ${entitlementUse} where ${entitlementUse.attemptId} = ${examResult.attemptId} and ${eq(entitlementUse.overLimit, true)})
      and ${also}`;
}

/**
 * A condition on exam_result: its attempt started inside the live test's window, by the start the
 * server bounds (sync-protocol scoring boundedStart: the earlier of the device's start and the
 * server's first sighting), with the device clock's allowance before the start
 * (docs/live-tests.md "Live tests").
 */
export function startedInWindow(live: { startAt: number; windowMs: number }): SQL {
  const start = sql`case when ${attempt.startedAt} < ${attempt.serverFirstSeen} then ${attempt.startedAt} else ${attempt.serverFirstSeen} end`;
  return sql`exists (select 1 from ${attempt} where ${attempt.id} = ${examResult.attemptId} and ${start} >= ${live.startAt - START_SKEW_MS} and ${start} <= ${live.startAt + live.windowMs})`;
}

/**
 * What a set's ranks count: for a live test, nothing before its result time (ranks and answers
 * are published for everyone at once, docs/live-tests.md) and then the attempts started inside
 * its window; for any other set, every ranked result.
 */
async function rankedScope(db: DB, qsid: string, now: number): Promise<SQL | null> {
  const live = await liveOf(db, qsid);
  if (!live) return sql`1 = 1`;
  return now < live.resultAt ? null : startedInWindow(live);
}

/** The marks of a set's ranked results (JSON columns come back as text on SQLite). */
async function rankedMarks(db: DB, qsid: string, scope: SQL): Promise<RankedMarks[]> {
  const found = await rows<{ total_marks: number; marks: string | Record<string, number> }>(db, sql`with ranked as (${rankedResults(qsid, scope)}) select total_marks, marks from ranked where n = 1`);
  return found.map((r) => ({ totalMarks: Number(r.total_marks), marks: typeof r.marks === 'string' ? (JSON.parse(r.marks) as Record<string, number>) : r.marks }));
}

/**
 * Rebuilds the distribution of one set; writes (with a new revision) only when it changed.
 * Below MIN_RANKED learners nothing is published, and a published one is withdrawn (deleted).
 * Returns whether it wrote.
 */
export async function rebuildDistribution(db: DB, qsid: string, now: number): Promise<boolean> {
  // A live test before its result time publishes nothing (a published one would be withdrawn).
  const scope = await rankedScope(db, qsid, now);
  const built = distributionOf(scope ? await rankedMarks(db, qsid, scope) : []);
  return transaction(db, async (tx) => {
    const old = await first(tx.select().from(scoreDist).where(eq(scoreDist.qsid, qsid)));
    if (built.n < MIN_RANKED) {
      if (!old || old.deleted) return false;
      await tx.update(scoreDist).set({ deleted: true, rev: await nextRev(tx) }).where(eq(scoreDist.qsid, qsid));
      return true;
    }
    const same = old && !old.deleted && old.n === built.n && JSON.stringify([old.t, old.s]) === JSON.stringify([built.t, built.s]);
    if (same) return false;
    const values = { n: built.n, t: built.t, s: built.s, at: now, deleted: false, rev: await nextRev(tx) };
    await tx
      .insert(scoreDist)
      .values({ qsid, ...values })
      .onConflictDoUpdate({ target: scoreDist.qsid, set: values });
    return true;
  });
}

/**
 * One run: the sets with a result written since the last run (by revision, oldest first) are
 * rebuilt, and the devices told. Returns how many distributions were written.
 */
export async function refreshDistributions(deps: Pick<Deps, 'db' | 'events'>, now = Date.now()): Promise<number> {
  const db = deps.db;
  const from = Number((await first(db.select({ value: meta.value }).from(meta).where(eq(meta.key, WATERMARK))))?.value ?? 0);
  const last = sql<number>`max(${examResult.rev})`;
  const changed = await db
    .select({ qsid: examResult.qsid, last })
    .from(examResult)
    .where(gt(examResult.rev, from))
    .groupBy(examResult.qsid)
    .orderBy(asc(last))
    .limit(MAX_SETS_PER_RUN);
  if (changed.length === 0) return 0;
  let written = 0;
  for (const { qsid } of changed) if (await rebuildDistribution(db, qsid, now)) written++;
  // Every set with a result up to this revision has been rebuilt; the rest come next run.
  const upTo = String(Math.max(...changed.map((c) => Number(c.last))));
  await db.insert(meta).values({ key: WATERMARK, value: upTo }).onConflictDoUpdate({ target: meta.key, set: { value: upTo } });
  if (written > 0) deps.events.emit({ collections: ['score_dist'] });
  return written;
}

/**
 * deps.afterResultsOpen (compose.ts): a live test's distribution is built the moment its results
 * open, for everyone at once, rather than at the job's next run up to DIST_REFRESH_MS later
 * (docs/live-tests.md "When it is refreshed"); the devices are told through the stream.
 */
export function distributionOnResultsOpen(deps: Pick<Deps, 'db' | 'events'>): ResultsOpenedHook {
  return async (qsid, now) => {
    if (await rebuildDistribution(deps.db, qsid, now)) deps.events.emit({ collections: ['score_dist'] });
  };
}

/** The distribution job of a serving instance (compose.ts startJobs), once across instances (lib/exclusive). */
export function startDistributionJob(deps: Pick<Deps, 'db' | 'events' | 'log'>, intervalMs = DIST_REFRESH_MS): () => void {
  const run = () => {
    runExclusive(deps.db, 'score-distributions', () => refreshDistributions(deps), { everyMs: intervalMs }).catch((err: unknown) =>
      deps.log.error({ err }, 'score distribution job failed'),
    );
  };
  const initial = setImmediate(run);
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => {
    clearImmediate(initial);
    clearInterval(timer);
  };
}
