import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rankIn } from '@pm/protocol/score-dist';
import { decodeHistogram } from '@pm/protocol/score-dist-code';
import { round } from '@pm/protocol/scoring';
import { scoreDistDocSchema, scoreDistListsDocSchema } from '@pm/protocol/sync/score-dist';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, examResult, person } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { nextRev } from '../../lib/revision';
import { type Harness, startHarness } from '../../test/harness';
import { rankCounts } from './results.service';
import { refreshDistributions } from './score-dist';
import { mulberry32 } from '@pm/protocol/seeded-random';

/*
 * The distribution as a device pulls it, in its compact form, ranks every score a learner of the
 * set could have exactly as the server's SQL ranks it (docs/live-tests.md "The compact form",
 * "Why the ranks agree"): random sets, random learners, encode on the server → decode as a
 * device does → the same rank, of and percentile for every possible total. An app of protocol
 * 1.0 gets the same histograms as two lists ("Older apps").
 */

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.tokenOf('learner');
});
afterAll(() => h.destroy());


type Marking = { questions: number; right: number; wrong: number };

/** Every total a learner of the set can have: r right and w wrong, r + w ≤ questions. */
function possibleTotals({ questions, right, wrong }: Marking): number[] {
  const all = new Set<number>();
  for (let r = 0; r <= questions; r++) for (let w = 0; w + r <= questions; w++) all.add(round(r * right - w * wrong));
  return [...all].sort((a, b) => a - b);
}

let mobiles = 6_100_000_000;
/** `learners` learners' first results at `qsid`, each a random possible total split over two sections. */
async function storeLearners(qsid: string, marking: Marking, learners: number, random: () => number) {
  const now = Date.now();
  const skillOfSet = random();
  for (let from = 0; from < learners; from += 200) {
    await transaction(h.deps.db, async (tx) => {
      for (let i = from; i < Math.min(learners, from + 200); i++) {
        const skill = Math.min(1, Math.max(0, skillOfSet + (random() - 0.5) * 0.8));
        let right = 0;
        let wrong = 0;
        for (let q = 0; q < marking.questions; q++) {
          const x = random();
          if (x < skill) right++;
          else if (x < skill + (1 - skill) / 3) wrong++;
        }
        const totalMarks = round(right * marking.right - wrong * marking.wrong);
        const firstHalf = round(Math.ceil(right / 2) * marking.right - Math.floor(wrong / 2) * marking.wrong);
        const personId = randomUUID();
        const attemptId = randomUUID();
        await tx.insert(person).values({ id: personId, name: 'Ranked Learner', mobile: String(mobiles++), passwordHash: 'x' });
        await tx.insert(attempt).values({ id: attemptId, personId, qsid, startedAt: now, serverFirstSeen: now, answers: {}, status: 'SUBMITTED', submittedAt: now, updatedAt: now, rev: await nextRev(tx) });
        await tx.insert(examResult).values({
          personId,
          qsid,
          attemptId,
          marks: { wos: 0, 'Part A': firstHalf, 'Part B': round(totalMarks - firstHalf) },
          userRes: {},
          totalMarks,
          practice: false,
          et: Math.floor(now / 1000),
          createdAt: now,
          rev: await nextRev(tx),
        });
      }
    });
  }
}

const pull = (protocol: string) => h.request('GET', '/sync/v1/score_dist/pull?rev=0&limit=1000', { token, headers: { 'x-sync-protocol': protocol } });

test('random sets: the pulled compact distribution ranks every possible total as the server SQL does', { timeout: 120_000 }, async () => {
  // Seeded, so that a failure names sets that can be built again.
  const random = mulberry32(2024);
  const sets: [string, Marking][] = [
    ['qs-mock-ssc-1', { questions: 40, right: 2, wrong: 0.5 }],
    ['qs-practice-gk', { questions: 30, right: 1, wrong: 0.3333 }],
    ['qs-hindi-sub', { questions: 25, right: 4, wrong: 1 }],
    ['qs-practice-numerical', { questions: 12, right: 3, wrong: 0 }],
  ];
  for (const [qsid, marking] of sets) await storeLearners(qsid, marking, 100 + Math.floor(random() * 900), random);
  expect(await refreshDistributions(h.deps)).toBe(sets.length);

  const answer = await pull(PROTOCOL_VERSION);
  expect(answer.status).toBe(200);
  const docs = (answer.body.documents as unknown[]).map((d) => scoreDistDocSchema.parse(d));
  for (const [qsid, marking] of sets) {
    const doc = docs.find((d) => d.id === qsid)!;
    expect(typeof doc.t).toBe('string');
    const decoded = decodeHistogram(doc.t);
    const scores = new Set(possibleTotals(marking));
    for (const m of decoded.m) scores.add(round(m - 0.0001)).add(round(m + 0.0001));
    const device: unknown[] = [];
    const server: unknown[] = [];
    for (const marks of scores) {
      device.push([marks, rankIn(doc.t, marks, true)]);
      const counts = await rankCounts(h.deps.db, qsid, marks, sql`1 = 1`);
      server.push([marks, { rank: counts.above + 1, of: counts.of, percentile: Math.round((counts.atOrBelow / counts.of) * 10_000) / 100 }]);
    }
    expect(device, qsid).toEqual(server);
  }
});

test('an app of protocol 1.0 pulls the same histograms as two lists each', async () => {
  const compact = ((await pull(PROTOCOL_VERSION)).body.documents as unknown[]).map((d) => scoreDistDocSchema.parse(d));
  const old = await pull('1.0.0');
  expect(old.status).toBe(200);
  const lists = (old.body.documents as unknown[]).map((d) => scoreDistListsDocSchema.parse(d));
  expect(lists.map((d) => d.id)).toEqual(compact.map((d) => d.id));
  for (const [i, doc] of compact.entries()) {
    const { t, s, ...rest } = lists[i]!;
    expect({ ...doc, t: decodeHistogram(doc.t), s: Object.fromEntries(Object.entries(doc.s).map(([name, code]) => [name, decodeHistogram(code)])) }).toEqual({ ...rest, t, s });
    expect(Object.keys(s).sort()).toEqual(['Part A', 'Part B']);
  }
});
