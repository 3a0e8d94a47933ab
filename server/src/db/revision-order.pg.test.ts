import { and, asc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nextRev } from '../lib/revision';
import { type Database_, openPostgres } from './client';
import { createDatabase, hasLocalPostgres, type LocalPostgres, startLocalPostgres } from './postgres-server';
import { tag } from './schema';
import { transaction } from './transaction';

/*
 * docs/cluster.md "Revisions across instances". A pull asks for documents with `rev > checkpoint` in
 * rev order and moves its checkpoint to the last one it got. The classic trap: writer A takes
 * revision 10, writer B takes 11 and commits first; a pull then returns 11 and moves past 10,
 * and when A commits, 10 is never pulled. Our rule (docs/cluster.md, "Revisions across instances"): a
 * revision is taken by `UPDATE revision_counter … RETURNING` inside the transaction that writes
 * the document, so the counter's row stays locked until that transaction ends. B's UPDATE waits
 * for A's COMMIT: revisions commit in their order, and every snapshot holds a prefix of them.
 *
 * Here two connections of one pool force the interleaving: A takes its revision and stops before
 * committing; B starts and asks for one; a pull runs in between.
 */

const skip = !hasLocalPostgres();
let server: LocalPostgres;
let database: Database_;

beforeAll(async () => {
  if (skip) return;
  server = await startLocalPostgres({ durable: false });
  database = await openPostgres(await createDatabase(server.url, 'revision_order'), { poolMax: 4 });
});
afterAll(async () => {
  await database?.close();
  await server?.stop();
});

const pull = (after: number) =>
  database.db
    .select({ tid: tag.tid, rev: tag.rev })
    .from(tag)
    .where(and(gt(tag.rev, after), eq(tag.deleted, false)))
    .orderBy(asc(tag.rev));

const newTag = (tid: string, rev: number) => ({ tid, key: 's', tags: { en: tid, hi: tid }, uat: Date.now(), rev });

describe.skipIf(skip)('revisions across writers on PostgreSQL', () => {
  test('a later revision cannot commit before an earlier one: the pull between sees neither, then both in order', async () => {
    const start = (await pull(0)).length;
    const checkpoint = Math.max(0, ...(await pull(0)).map((r) => r.rev));
    let releaseA!: () => void;
    const gateA = new Promise<void>((r) => (releaseA = r));
    let revA = 0;
    let revB = 0;
    const events: string[] = [];

    const a = transaction(database.db, async (tx) => {
      revA = await nextRev(tx);
      events.push(`A took ${revA}`);
      await tx.insert(tag).values(newTag('order-a', revA));
      await gateA; // A holds its transaction open (the counter's row stays locked)
      events.push('A commits');
    });
    while (revA === 0) await new Promise((r) => setTimeout(r, 5));

    const b = transaction(database.db, async (tx) => {
      revB = await nextRev(tx);
      events.push(`B took ${revB}`);
      await tx.insert(tag).values(newTag('order-b', revB));
    });
    // B waits on the counter's row for as long as A is open.
    await new Promise((r) => setTimeout(r, 300));
    expect(revB).toBe(0);
    // A pull in between: nothing new is visible, so its checkpoint cannot move past A's revision.
    expect(await pull(checkpoint)).toEqual([]);

    releaseA();
    await Promise.all([a, b]);
    expect(events).toEqual([`A took ${revA}`, 'A commits', `B took ${revB}`]);
    expect(revB).toBe(revA + 1);
    expect(await pull(checkpoint)).toEqual([
      { tid: 'order-a', rev: revA },
      { tid: 'order-b', rev: revB },
    ]);
    expect((await pull(0)).length).toBe(start + 2);
  });

  test('many writers at once: every snapshot a reader takes holds a gap-free prefix of the revisions', async () => {
    const base = Math.max(0, ...(await pull(0)).map((r) => r.rev));
    const writers = Array.from({ length: 40 }, (_, i) =>
      transaction(database.db, async (tx) => {
        const rev = await nextRev(tx);
        await tx.insert(tag).values(newTag(`many-${i}`, rev));
        // A little work after taking the revision, as a real write does.
        await tx.select({ tid: tag.tid }).from(tag).where(eq(tag.tid, `many-${i}`));
      }),
    );
    let done = false;
    const all = Promise.all(writers).then(() => (done = true));
    const seen: number[][] = [];
    while (!done) {
      seen.push((await pull(base)).map((r) => r.rev));
      await new Promise((r) => setTimeout(r, 1));
    }
    await all;
    seen.push((await pull(base)).map((r) => r.rev));
    for (const revs of seen) expect(revs).toEqual(revs.map((_, i) => base + 1 + i));
    expect(seen.at(-1)).toHaveLength(40);
  });
});
