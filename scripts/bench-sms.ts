/**
 * `npm run bench:sms` (docs/sms.md "Answers by SMS"): 1,000 answer codes arriving at once as the
 * local SMS sandbox's inbound callbacks (the configured provider's own signed callback, built by
 * the sandbox, posted to our callback route), against the same run's push
 * of one attempt by data (POST /api/sync/v1/test_summary/push), 1,000 at once. Every attempt that
 * came by SMS must be stored and scored exactly once, and the p99 of an SMS must be within 1.5×
 * the p99 of a push. The real app on 127.0.0.1 on a temporary data dir, seeded; 1,000 learners,
 * each signed in once (a session, so an SMS key); the seeded practice set `qs-practice-gk`.
 * BENCH_SMS (default 1000) sets how many.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import { packAnswerCode, type SmsQuestion, smsQuestions } from '@pm/protocol/sms-answer-code';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { openBenchApp } from './bench-app';
import { percentile } from './bench-lib';

const N = Number(process.env.BENCH_SMS ?? 1000);
const QSID = 'qs-practice-gk';
const LIMIT = 1.5;

const { serveApp } = await import('../server/src/serve');
const { openSession } = await import('../server/src/lib/sessions');
const { attempt, examResult, person, questionSet } = await import('../server/src/db/schema');
const { transaction, first } = await import('../server/src/db/transaction');
const { qsDetailDocs } = await import('../server/src/modules/sync/sync.docs');
const { smsKeyOf } = await import('../server/src/modules/sms-answers/sms-key');
const { dir, config, database, db, deps, app } = await openBenchApp({ prefix: 'pm-bench-sms-' });
const { inboundCallback } = await import('../server/src/modules/sms/sandbox-sms');

const mobileOf = (p: number) => `+9170000${String(p).padStart(5, '0')}`;
await transaction(db, async (tx) => {
  for (let p = 0; p < N; p++) await tx.insert(person).values({ id: `bench-sms-${p}`, name: `Bench SMS ${p}`, mobile: mobileOf(p), passwordHash: 'x' });
});
const sessions = await Promise.all(Array.from({ length: N }, (_, p) => openSession(db, config.jwtSecret, { id: `bench-sms-${p}`, tokenVersion: 0 })));

// The set's questions as a device holds them (replication's qs_detail).
const [detail] = await qsDetailDocs(db, [(await first(db.select().from(questionSet).where(eq(questionSet.id, QSID))))!]);
const byId = new Map(detail!.questions.map((q) => [q.id, q]));
const questions: SmsQuestion[] = smsQuestions(
  detail!.questions.map((q) => q.id),
  (id) => byId.get(id),
);

/** A submitted attempt, every question answered with its first option (or a number). */
function attemptOf(p: number, kind: 'sms' | 'push'): TestSummaryDoc {
  const now = Date.now();
  const hex = (p * 2 + (kind === 'sms' ? 0 : 1)).toString(16).padStart(12, '0');
  const answers: TestSummaryDoc['answers'] = {};
  for (const q of questions) answers[q.id] = { ua: q.qt === 'mcq1' ? q.options[0]! : q.qt === 'mcq2' ? [q.options[0]!] : '42', status: 'ANSWERED' };
  return { id: `be5c0000-0000-4000-8000-${hex}`, qsid: QSID, st: now - 600_000, sfs: 0, lsq: null, index: 0, selectedSection: null, answers, status: 'SUBMITTED', submittedAt: now - 60_000, elapsed: 540_000, updatedAt: now - 60_000, _deleted: false };
}

const server = await new Promise<{ port: number; close: () => void }>((resolve) => {
  const s = serveApp(app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve({ port: info.port, close: () => s.close() }));
});
const base = `http://127.0.0.1:${server.port}`;

/** Sends every request at once; the time each took (ms), and the statuses that were not 2xx. */
async function storm(make: (p: number) => Promise<Response>): Promise<{ ms: number[]; failed: number[] }> {
  const ms: number[] = [];
  const failed: number[] = [];
  await Promise.all(
    Array.from({ length: N }, async (_, p) => {
      const t0 = performance.now();
      const res = await make(p);
      await res.arrayBuffer();
      ms.push(performance.now() - t0);
      if (!res.ok) failed.push(res.status);
    }),
  );
  return { ms, failed };
}

const codes = await Promise.all(Array.from({ length: N }, async (_, p) => (await packAnswerCode(attemptOf(p, 'sms'), questions, smsKeyOf(config.jwtSecret, sessions[p]!.session.id)))!.text));

const pushes = await storm((p) =>
  fetch(`${base}/api/sync/v1/test_summary/push`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sessions[p]!.token}`, 'content-type': 'application/json', 'x-sync-protocol': PROTOCOL_VERSION },
    body: JSON.stringify([{ newDocumentState: attemptOf(p, 'push'), assumedMasterState: null }]),
  }),
);
// The provider's callbacks, as the sandbox signs them (modules/sms/sandbox-sms.ts inboundCallback),
// sent to our callback route all at once: what our server receives when 1,000 phones text their
// codes at once. (POST /sandbox/sms/inbound does the same one message at a time, in the e2e spec.)
const sandbox = deps.sms.sandbox;
if (!sandbox) throw new Error('bench:sms needs the SMS sandbox (SMS_PROVIDER=sandbox, the default outside production)');
const callbacks = codes.map((text, p) => inboundCallback(sandbox, mobileOf(p), text));
const sms = await storm((p) => {
  const cb = callbacks[p]!;
  const url = new URL(cb.url);
  return fetch(`${base}${url.pathname}${url.search}`, { method: 'POST', headers: cb.headers, body: cb.body });
});

const ids = Array.from({ length: N }, (_, p) => attemptOf(p, 'sms').id);
let stored = 0;
let scored = 0;
for (let i = 0; i < ids.length; i += 500) {
  const slice = ids.slice(i, i + 500);
  stored += (await first(db.select({ n: count() }).from(attempt).where(and(inArray(attempt.id, slice), eq(attempt.status, 'SUBMITTED')))))!.n;
  scored += (await first(db.select({ n: count() }).from(examResult).where(inArray(examResult.attemptId, slice))))!.n;
}

const p99Push = percentile(pushes.ms, 99);
const p99Sms = percentile(sms.ms, 99);
console.log(`push of one attempt ×${N}: p50 ${percentile(pushes.ms, 50).toFixed(0)} ms, p99 ${p99Push.toFixed(0)} ms${pushes.failed.length ? `, ${pushes.failed.length} failed` : ''}`);
console.log(`answer code by SMS ×${N}: p50 ${percentile(sms.ms, 50).toFixed(0)} ms, p99 ${p99Sms.toFixed(0)} ms${sms.failed.length ? `, ${sms.failed.length} failed` : ''}`);
console.log(`stored ${stored}/${N}, scored ${scored}/${N}; p99 SMS / push = ${(p99Sms / p99Push).toFixed(2)} (at most ${LIMIT})`);

server.close();
await database.close();
const { rmSync } = await import('node:fs');
rmSync(dir, { recursive: true, force: true });
const ok = stored === N && scored === N && sms.failed.length === 0 && pushes.failed.length === 0 && p99Sms <= LIMIT * p99Push;
if (!ok) {
  console.error('bench:sms failed');
  process.exit(1);
}
