/**
 * The floor of `bench:exam` (server part; docs/benchmarks.md, "bench:exam — server"): a bare
 * Hono + better-sqlite3 server that does what storing a submission needs and nothing else. It
 * takes the same push body (one submitted attempt of 100 answers), verifies the same kind of
 * token with jose (HS256, the app's secret), scores the answers with sync-protocol's scoring
 * against the bench set's marking, and stores one attempt row and one result row in one
 * transaction, on a database of its own with the app's page size and journal settings. Our
 * submissions/s are printed as a share of its, and our CPU per submission as a multiple of its.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import { jwtVerify } from 'jose';
import { keyQuestion, partsOf, score } from '@pm/protocol/scoring';
import type { DB } from '../server/src/db/client';
import { question, questionSet } from '../server/src/db/schema';
import { setQuestionIds } from '@pm/protocol/question-set';
import { serveApp } from '../server/src/serve';

export async function serveExamFloor(opts: { dir: string; jwtSecret: Uint8Array; db: DB; qsid: string }): Promise<{ port: number; close: () => void }> {
  // The bench set's marking, as the app's scoring compiles it (results.service schemeOf).
  const set = (await opts.db.select().from(questionSet).where(eq(questionSet.id, opts.qsid)))[0]!;
  const rows = await opts.db.select().from(question).where(inArray(question.id, setQuestionIds(set)));
  const keys = new Map(rows.map((r) => [r.id, keyQuestion(r)]));
  const parts = partsOf(set, (id) => keys.get(id));

  const sqlite = new Database(path.join(opts.dir, 'floor.db'));
  // As the app's database (server/src/db/client.ts): 2 KiB pages, WAL, synchronous NORMAL.
  sqlite.pragma('page_size = 2048');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec(`
    create table attempt (id text primary key, person_id text not null, qsid text not null, answers text not null, submitted_at integer);
    create table result (id text primary key, attempt_id text not null unique, person_id text not null, qsid text not null,
                         marks text not null, user_res text not null, total_marks real not null, created_at integer not null);
  `);
  const insertAttempt = sqlite.prepare('insert into attempt (id, person_id, qsid, answers, submitted_at) values (?, ?, ?, ?, ?)');
  const insertResult = sqlite.prepare('insert into result (id, attempt_id, person_id, qsid, marks, user_res, total_marks, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)');
  type Doc = { id: string; qsid: string; answers: Parameters<typeof score>[1]; submittedAt: number | null };
  const store = sqlite.transaction((personId: string, doc: Doc) => {
    const s = score(parts, doc.answers);
    insertAttempt.run(doc.id, personId, doc.qsid, JSON.stringify(doc.answers), doc.submittedAt);
    insertResult.run(randomUUID(), doc.id, personId, doc.qsid, JSON.stringify(s.marks), JSON.stringify(s.userRes), s.totalMarks, Date.now());
  });

  const app = new Hono().post('/floor/push', async (c) => {
    const token = c.req.header('authorization')?.slice('Bearer '.length) ?? '';
    let sub: string;
    try {
      sub = (await jwtVerify(token, opts.jwtSecret, { algorithms: ['HS256'] })).payload.sub!;
    } catch {
      return c.json({ success: false }, 401);
    }
    const rows = (await c.req.json()) as { newDocumentState: Doc }[];
    for (const r of rows) store(sub, r.newDocumentState);
    return c.json([]);
  });
  const port = await new Promise<number>((resolve) => serveApp(app.fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve(info.port)));
  return { port, close: () => sqlite.close() };
}
