import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Deps } from '../../context';
import type { Conn } from '../../db/client';
import { questionSet } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { runExclusive } from '../../lib/exclusive';
import { nextRev } from '../../lib/revision';

/**
 * Publishes sets whose publish time (`pts`, minutes) has come, and withdraws published sets whose
 * `pts` an editor moved into the future or that an editor made a draft again (docs/authoring.md: a
 * draft is never published, whatever its `pts`). Each flip takes new revisions, so devices pull the set
 * (or its deletion) although nothing else about it changed. Returns how many sets flipped.
 */
export async function publishDue(deps: Pick<Deps, 'db' | 'events'>, now = Date.now()): Promise<number> {
  const flipped = await transaction(deps.db, (tx) => publishDueIn(tx, now));
  if (flipped > 0) deps.events.emit({ collections: ['question_set', 'qs_detail'] });
  return flipped;
}

/**
 * `publishDue` inside a caller's transaction (a set saved with a publish time already past is
 * published in the same transaction as the save). The caller tells devices when this returns > 0.
 * `published_at` keeps the first publication: learners may hold sets that were published once.
 */
export async function publishDueIn(tx: Conn, now = Date.now(), onlyId?: string): Promise<number> {
  const minute = Math.floor(now / 60_000);
  const due = await tx
    .select({ id: questionSet.id, published: questionSet.published })
    .from(questionSet)
    .where(
      and(
        eq(questionSet.deleted, false),
        onlyId === undefined ? undefined : eq(questionSet.id, onlyId),
        or(
          and(eq(questionSet.published, false), eq(questionSet.draft, false), lte(questionSet.pts, minute)),
          and(eq(questionSet.published, true), or(gt(questionSet.pts, minute), eq(questionSet.draft, true))),
        ),
      ),
    );
  for (const s of due) {
    const rev = await nextRev(tx);
    const detailRev = await nextRev(tx);
    await tx
      .update(questionSet)
      .set({
        published: !s.published,
        publishedAt: s.published ? undefined : sql`coalesce(${questionSet.publishedAt}, ${now})`,
        rev,
        detailRev,
      })
      .where(eq(questionSet.id, s.id));
  }
  return due.length;
}

/**
 * Runs publishDue now (the promise settles once it has) and then every `intervalMs` (default
 * 30 s: pts has minute precision). Resolves to the function that stops it.
 */
export async function startPublisher(deps: Deps, intervalMs = 30_000): Promise<() => void> {
  // Once across instances (lib/exclusive): the instance that holds the job's lock runs it.
  await runExclusive(deps.db, 'publish', () => publishDue(deps));
  const timer = setInterval(() => {
    runExclusive(deps.db, 'publish', () => publishDue(deps), { everyMs: intervalMs }).catch((err: unknown) => deps.log.error({ err }, 'publish job failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
