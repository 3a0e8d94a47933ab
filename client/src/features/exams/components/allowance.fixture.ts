import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { newAttempt } from '@pm/protocol/sync/test-summary';
import type { EntitlementDoc } from '@pm/protocol/sync/entitlement';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { openReplicaDatabase, type ReplicaDatabase } from '@/db/core/database';
import type { ReplicaHandle } from '@/db/learner/replica';
import type { Attempt } from '../lib/test-engine';

/*
 * For the component tests of the plan's allowance: a real RxDB database in memory with the
 * collections the device replicates, holding sets, their questions, attempts and an entitlement,
 * as the replica would after a pull (nothing is fetched: the pages must work offline).
 */

export const PERSON = 'learner-1';
const DAY = 86_400_000;

type StoredSet = Omit<QuestionSetDoc, '_deleted'>;

export function questionSet(id: string, l: string, over: Partial<StoredSet> = {}): StoredSet {
  return { id, l, mpq: 1, tm: 2, nm: 0, dur: 30, isM: false, free: false, inst: '', pts: 0, n: 2, sections: {}, trans: {}, total: 2, count: 2, updatedAt: 1, v: 1, tags: { s: [], e: [], c: [] }, ...over };
}

/** The set's questions as the server sends them; `answers`: with their correct answers (a practice set may carry them). */
export function detailOf(set: StoredSet, { answers = false } = {}): Omit<QsDetailDoc, '_deleted'> {
  const ca = (key: string) => (answers ? { ca: [key] } : {});
  return {
    id: set.id,
    isM: set.isM,
    main: { q: ['q1', 'q2'], mpq: 1, tm: 2, nm: 0, o: 0 },
    sections: {},
    questions: [
      { id: 'q1', q: '<p>2 + 2 = ?</p>', ops: { a: '<p>3</p>', b: '<p>4</p>' }, qt: 'mcq1', d: '1', ...ca('b'), trans: {} },
      { id: 'q2', q: '<p>Capital of India?</p>', ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>' }, qt: 'mcq1', d: '1', ...ca('a'), trans: {} },
    ],
    v: set.v,
  };
}

/** A monthly plan in force now: 10 mock tests and 2 practice exams, none used. */
export function monthlyPlan(over: Partial<EntitlementDoc> = {}): Omit<EntitlementDoc, '_deleted'> {
  const now = Date.now();
  return {
    id: PERSON,
    planCode: 'MONTHLY',
    planName: { en: 'Monthly', hi: 'मासिक' },
    startsAt: now - 5 * DAY,
    endsAt: Date.UTC(2099, 0, 15, 12),
    mock: { limit: 10, used: 0 },
    practice: { limit: 2, used: 0 },
    counted: [],
    overLimit: [],
    updatedAt: now,
    ...over,
  };
}

export function attemptAt(qsid: string, id: string, over: Partial<Attempt> = {}): Attempt {
  const now = Date.now();
  return { ...newAttempt(id, qsid, now - 60_000), status: 'SUBMITTED', submittedAt: now - 1000, elapsed: 1000, updatedAt: now, ...over };
}

let n = 0;

/** Opens a fresh in-memory replica holding the given documents. */
export async function openFixture(docs: {
  sets: StoredSet[];
  entitlement?: Omit<EntitlementDoc, '_deleted'> | null;
  attempts?: Attempt[];
  /** Sets whose questions are not on the device (a paid set the plan does not cover: docs/payments.md "Without a plan"). */
  withoutQuestions?: string[];
  /** The questions carry their correct answers (a practice set's may). */
  answers?: boolean;
}): Promise<{ db: ReplicaDatabase; replica: ReplicaHandle }> {
  const db = await openReplicaDatabase(PERSON, { storage: getRxStorageMemory(), multiInstance: false, name: `allowance-test-${++n}-${Date.now()}` });
  await db.question_set.bulkInsert(docs.sets);
  const held = new Set(docs.withoutQuestions ?? []);
  await db.qs_detail.bulkInsert(docs.sets.filter((s) => !held.has(s.id)).map((s) => detailOf(s, { answers: docs.answers })));
  if (docs.entitlement) await db.entitlement.insert(docs.entitlement);
  if (docs.attempts?.length) await db.test_summary.bulkInsert(docs.attempts);
  // Only what these pages use of a replica: the database and a journal with nothing in it.
  const replica = {
    personId: PERSON,
    db,
    journal: { view: <A>(a: A) => a, subscribe: () => () => undefined, getVersion: () => 0, record: () => Promise.resolve(), flush: () => Promise.resolve() },
    syncNow: () => undefined,
    close: () => Promise.resolve(),
  } as unknown as ReplicaHandle;
  return { db, replica };
}
