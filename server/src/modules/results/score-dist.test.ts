import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MIN_RANKED, rankIn } from '@pm/protocol/score-dist';
import { scoreDistDocSchema } from '@pm/protocol/sync/score-dist';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import type { Principal } from '../../context';
import { attempt, entitlementUse, examResult, meta, person, scoreDist } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { nextRev } from '../../lib/revision';
import { type Harness, startHarness } from '../../test/harness';
import { rank } from './results.service';
import { refreshDistributions } from './score-dist';

/*
 * The distribution a device ranks in counts what GET /question/getRank counts (docs/live-tests.md
 * "Provisional rank on the device"): results are stored directly, then every learner's server
 * rank is compared with the rank the device works out from the published histogram.
 */

let h: Harness;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  learner = await h.tokenOf('learner');
});
afterAll(() => h.destroy());

let mobiles = 7_000_000_000;
type Stored = { personId: string; totalMarks: number };

/** One learner's result at `qsid`: a person, a submitted attempt and its result; `locked` past a plan's allowance. */
async function stored(qsid: string, totalMarks: number, opts: { personId?: string; practice?: boolean; locked?: boolean; marks?: Record<string, number> } = {}): Promise<Stored> {
  const personId = opts.personId ?? randomUUID();
  const now = Date.now();
  await transaction(h.deps.db, async (tx) => {
    if (!opts.personId) await tx.insert(person).values({ id: personId, name: 'Ranked Learner', mobile: String(mobiles++), passwordHash: 'x' });
    const attemptId = randomUUID();
    await tx.insert(attempt).values({ id: attemptId, personId, qsid, startedAt: now, serverFirstSeen: now, answers: {}, status: 'SUBMITTED', submittedAt: now, updatedAt: now, rev: await nextRev(tx) });
    await tx.insert(examResult).values({
      personId,
      qsid,
      attemptId,
      marks: opts.marks ?? { wos: totalMarks },
      userRes: {},
      totalMarks,
      practice: opts.practice ?? false,
      et: Math.floor(now / 1000),
      createdAt: now,
      rev: await nextRev(tx),
    });
    if (opts.locked) await tx.insert(entitlementUse).values({ attemptId, personId, qsid, kind: 'mock', overLimit: true, startedAt: now });
  });
  return { personId, totalMarks };
}

const principal = (id: string) => ({ id, name: 'Ranked Learner', permissions: new Set<string>(), sessionId: 's' }) as Principal;
const distOf = async (qsid: string) => (await h.deps.db.select().from(scoreDist).where(eq(scoreDist.qsid, qsid)))[0];

/** Every ranked learner's server rank equals the rank in the published distribution. */
async function expectRanksAgree(qsid: string, learners: Stored[]) {
  const dist = (await distOf(qsid))!;
  expect(dist.deleted).toBe(false);
  for (const l of learners) {
    const server = await rank(h.deps, principal(l.personId), qsid);
    expect(rankIn(dist.t, l.totalMarks, true), `learner with ${l.totalMarks}`).toEqual({ rank: server.rank, of: server.of, percentile: server.percentile });
  }
}

describe('a set with enough ranked learners gets a distribution that ranks as the server does', () => {
  test(`ties, practice and locked results: fewer than ${MIN_RANKED} ranked publish nothing; then the ranks agree`, async () => {
    const qsid = 'qs-hindi-sub';
    const learners: Stored[] = [];
    for (const m of [10, 8, 8, 8, 5.5, 0]) learners.push(await stored(qsid, m, { marks: { wos: 0, Hindi: m - 1, Reasoning: 1 } }));
    // A second attempt of a ranked learner is practice, and a locked result counts for no one.
    await stored(qsid, 20, { personId: learners[5]!.personId, practice: true });
    await stored(qsid, 30, { locked: true });
    await refreshDistributions(h.deps);
    expect(await distOf(qsid)).toBeUndefined();

    for (const m of [3, 8, -1.5, 12]) learners.push(await stored(qsid, m, { marks: { wos: 0, Hindi: m - 1, Reasoning: 1 } }));
    expect(await refreshDistributions(h.deps)).toBe(1);
    const dist = (await distOf(qsid))!;
    expect(dist.n).toBe(MIN_RANKED);
    expect(dist.t).toEqual({ m: [-1.5, 0, 3, 5.5, 8, 10, 12], c: [1, 1, 1, 1, 4, 1, 1] });
    expect(dist.s.Reasoning).toEqual({ m: [1], c: [10] });
    expect(dist.s.Hindi!.m).toEqual([-2.5, -1, 2, 4.5, 7, 9, 11]);
    await expectRanksAgree(qsid, learners);
  });

  test('a learner who submits after the distribution was built is ranked in it as the server ranks them after', async () => {
    const qsid = 'qs-practice-numerical';
    const learners: Stored[] = [];
    for (let i = 0; i < 15; i++) learners.push(await stored(qsid, (i * 7) % 9));
    await refreshDistributions(h.deps);
    const before = (await distOf(qsid))!;
    const late = await stored(qsid, 4);
    const server = await rank(h.deps, principal(late.personId), qsid);
    expect(rankIn(before.t, 4, false)).toEqual({ rank: server.rank, of: server.of, percentile: server.percentile });
  });

  test('a run that finds nothing new writes nothing; a change (an evaluation) rewrites one set with a new revision', async () => {
    // The late learner of the test before is counted; then nothing is new.
    expect(await refreshDistributions(h.deps)).toBe(1);
    expect(await refreshDistributions(h.deps)).toBe(0);
    const qsid = 'qs-practice-numerical';
    const old = (await distOf(qsid))!;
    const one = (await h.deps.db.select().from(examResult).where(eq(examResult.qsid, qsid)))[0]!;
    await transaction(h.deps.db, async (tx) => tx.update(examResult).set({ totalMarks: 100, rev: await nextRev(tx) }).where(eq(examResult.id, one.id)));
    expect(await refreshDistributions(h.deps)).toBe(1);
    const after = (await distOf(qsid))!;
    expect(after.rev).toBeGreaterThan(old.rev);
    expect(after.t.m.at(-1)).toBe(100);
  });

  test('a run remembers the last result revision it dealt with', async () => {
    const [w] = await h.deps.db.select().from(meta).where(eq(meta.key, 'score_dist.rev'));
    expect(Number(w!.value)).toBeGreaterThan(0);
  });
});

describe('replication', () => {
  test('score_dist replicates by checkpoint to a signed-in device, and only to one', async () => {
    const V = { 'x-sync-protocol': PROTOCOL_VERSION };
    const first = await h.request('GET', '/sync/v1/score_dist/pull?rev=0&limit=1000', { token: learner, headers: V });
    expect(first.status).toBe(200);
    const docs = first.body.documents as unknown[];
    expect(docs.map((d) => scoreDistDocSchema.parse(d).id).sort()).toEqual(['qs-hindi-sub', 'qs-practice-numerical']);
    const again = await h.request('GET', `/sync/v1/score_dist/pull?rev=${first.body.checkpoint.rev}&limit=1000`, { token: learner, headers: V });
    expect(again.body.documents).toEqual([]);
    // More learners: a new revision, pulled from the checkpoint.
    await stored('qs-hindi-sub', 7);
    await refreshDistributions(h.deps);
    const next = await h.request('GET', `/sync/v1/score_dist/pull?rev=${first.body.checkpoint.rev}&limit=1000`, { token: learner, headers: V });
    expect(next.body.documents.map((d: { id: string; n: number }) => [d.id, d.n])).toEqual([['qs-hindi-sub', 11]]);
    expect((await h.request('GET', '/sync/v1/score_dist/pull?rev=0', { headers: V })).status).toBe(401);
  });

  test('a set whose ranked learners fall below the minimum withdraws its distribution (deleted)', async () => {
    const qsid = 'qs-practice-numerical';
    const ids = (await h.deps.db.select().from(examResult).where(eq(examResult.qsid, qsid))).slice(0, 10);
    await transaction(h.deps.db, async (tx) => {
      for (const r of ids) await tx.update(examResult).set({ deleted: true, rev: await nextRev(tx) }).where(eq(examResult.id, r.id));
    });
    expect(await refreshDistributions(h.deps)).toBe(1);
    expect((await distOf(qsid))!.deleted).toBe(true);
  });
});
