import { inArray } from 'drizzle-orm';
import type { DB } from '../server/src/db/client';
import { first, transaction } from '../server/src/db/transaction';
import { person, question, questionSet } from '../server/src/db/schema';
import { grantPlan } from '../server/src/modules/entitlements/entitlements.service';
import { nextRev } from '../server/src/lib/revision';
import { indexQuestion } from '../server/src/modules/questions/question-index';

/** Ids of the bench questions, in insertion order. */
export const benchQuestionIds = (n = 5000) => Array.from({ length: n }, (_, i) => `bench-q-${i}`);

/**
 * The benchmarks' learner data set on top of the seeded fixtures: 5,000 questions in English and
 * Hindi (copies of the fixture questions, indexed and versioned), 50 published sets of 100 (half of them mocks), and
 * `learners` extra learner accounts. Call publishDue afterwards.
 */
export async function growBenchData(db: DB, opts: { learners?: number } = {}) {
  const templates = (await db.select().from(question));
  const now = Date.now();
  await transaction(db, async (tx) => {
    for (let i = 0; i < 5000; i++) {
      const t = templates[i % templates.length]!;
      const row = (await first(tx
        .insert(question)
        .values({ ...t, id: `bench-q-${i}`, q: `${t.q}<p>#${i}</p>`, createdBy: null, updatedBy: null, updatedAt: now, rev: await nextRev(tx) })
        .returning()
        ))!;
      // Its tags, search text and current version, as the questions service records a question.
      await indexQuestion(tx, row, { action: 'CREATE', actor: null });
    }
    for (let s = 0; s < 50; s++) {
      const ids = Array.from({ length: 100 }, (_, k) => `bench-q-${s * 100 + k}`);
      await tx.insert(questionSet)
        .values({
          id: `bench-set-${s}`,
          l: `Bench mock ${s}`,
          mpq: 2,
          tm: 100,
          nm: 0.5,
          dur: 60,
          isM: s % 2 === 0,
          inst: '<p>Read every question carefully.</p>',
          q: ids.slice(0, 50),
          sections: { Reasoning: { ss: false, q: ids.slice(50), mpq: 2, tm: 100, nm: 0.5, o: 1 } },
          pts: 29_000_000,
          createdBy: null,
          updatedAt: now,
          rev: await nextRev(tx),
          detailRev: await nextRev(tx),
        })
        ;
    }
    for (let p = 0; p < (opts.learners ?? 0); p++) {
      await tx.insert(person).values({ id: `bench-person-${p}`, name: `Bench Learner ${p}`, mobile: `+9170000${String(p).padStart(5, '0')}`, passwordHash: 'x' });
      // Each holds the yearly plan, as learners taking mock tests do: the bench sets are not free,
      // and without a plan an attempt started online is refused (docs/payments.md "Without a plan").
      await grantPlan(tx, { orderId: `bench-order-${p}`, personId: `bench-person-${p}`, planCode: 'ANNUAL_PLAN', paidAt: now - 60_000 });
    }
  });
  return { questions: async () => (await db.select().from(question).where(inArray(question.id, benchQuestionIds()))) };
}
