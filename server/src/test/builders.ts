import { randomUUID } from 'node:crypto';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { DB } from '../db/client';
import { transaction } from '../db/transaction';
import { grantPlan } from '../modules/entitlements/entitlements.service';

/** Test data that several suites build the same way (one definition, CONVENTIONS: no copies). */

let seq = 0;

/**
 * A submitted attempt (a test summary as a device pushes it) at the seeded mock test, ten
 * minutes long and no answers unless `over` gives them. Ids are unique in the process and across
 * processes sharing one database (the PostgreSQL runs): `<prefix>-<pid>-<n>`.
 */
export function submittedAttempt(prefix: string, over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `${prefix}-${process.pid}-${seq.toString().padStart(4, '0')}`,
    qsid: 'qs-mock-ssc-1',
    st: now - 600_000,
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: {},
    status: 'SUBMITTED',
    submittedAt: now,
    elapsed: 600_000,
    updatedAt: now,
    _deleted: false,
    ...over,
  };
}

/**
 * An exam_result row with per-part marks, answers, a late flag and JSON in two columns: the
 * row the raw-statement tests store both through Drizzle and through a prepared statement.
 */
export function examResultRow(id: string, attemptId: string, rev: number, owner: { personId: string; qsid: string }) {
  return {
    id,
    personId: owner.personId,
    qsid: owner.qsid,
    attemptId,
    marks: { wos: 2.5, Reasoning: -1 },
    userRes: { wos: { q1: { ua: ['a', 'c'], mg: 2 } } },
    totalMarks: 1.5,
    late: true,
    et: 1_800_000_000,
    createdAt: 1_800_000_000_000,
    rev,
  };
}

/**
 * A paid plan for `personId` (default the yearly one: unlimited mock tests), as the payments
 * module grants it when an order becomes PAID, paid an hour ago unless `paidAt` says otherwise:
 * for suites whose learners take paid sets (docs/payments.md "Without a plan").
 */
export function grantTestPlan(db: DB, personId: string, planCode = 'ANNUAL_PLAN', paidAt = Date.now() - 3_600_000) {
  return transaction(db, (tx) => grantPlan(tx, { orderId: `test-order-${randomUUID()}`, personId, planCode, paidAt }));
}

/** A bilingual single-answer question as POST /api/question takes it (fields of `over` win). */
export const mcqQuestion = (over: Record<string, unknown> = {}) => ({
  q: '<p>Which planet is known as the Red Planet?</p>',
  ops: { a: '<p>Venus</p>', b: '<p>Mars</p>', c: '<p>Jupiter</p>', d: '<p>Saturn</p>' },
  ca: ['b'],
  qt: 'mcq1',
  d: '2',
  s: 'gk',
  c: ['class-10'],
  t: [],
  e: [],
  trans: { hi: { q: '<p>किस ग्रह को लाल ग्रह कहा जाता है?</p>', ops: { a: 'शुक्र', b: 'मंगल', c: 'बृहस्पति', d: 'शनि' }, ca: ['b'] } },
  ...over,
});
