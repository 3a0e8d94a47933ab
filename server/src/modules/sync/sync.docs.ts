import { inArray, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import type { ExamResultDoc, ResultQuestion } from '@pm/protocol/sync/exam-result';
import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import { NO_SET_TAGS, type QuestionSetDoc, type SetTags } from '@pm/protocol/sync/question-set';
import { encodeHistogram } from '@pm/protocol/score-dist-code';
import type { ScoreDistDoc, ScoreDistListsDoc } from '@pm/protocol/sync/score-dist';
import type { TagDoc } from '@pm/protocol/sync/tag';
import { partMarks, setTotalMarks } from '@pm/protocol/set-text';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { Conn, DB } from '../../db/client';
import { inJsonArray, inJsonPairs, prepared } from '../../db/dialect';
import type { attempt, examResult, questionSet, scoreDist, tag } from '../../db/schema';
import { question, questionVersion } from '../../db/schema';
import { liveOfSets, sealedDetail } from '../live-tests/live-tests.service';
import { accessTo, isVisibleSet } from '../questions/question-access';

/* Rows → replicated documents (the shapes of sync-protocol/src/sync). */

type SetRow = typeof questionSet.$inferSelect;

type DistRow = typeof scoreDist.$inferSelect;

/**
 * A set's score distribution (docs/live-tests.md "Provisional rank on the device"); its id is
 * the set's. Each histogram in its compact exact form ("The compact form").
 */
export function scoreDistDoc(r: DistRow): ScoreDistDoc {
  const s: Record<string, string> = {};
  for (const [name, h] of Object.entries(r.s)) s[name] = encodeHistogram(h);
  return { id: r.qsid, n: r.n, t: encodeHistogram(r.t), s, at: r.at, _deleted: r.deleted };
}

/**
 * Encoded distributions per database, by set and revision (a revision is never reused within a
 * database, so an entry never goes stale): encoding a 10,000-learner set's five histograms takes
 * ~0.1–0.2 ms, and every device pulls each new distribution (docs/benchmarks.md "bench:score-dist").
 */
const encodedDists = new WeakMap<object, LRUCache<string, ScoreDistDoc>>();

/** scoreDistDoc, encoded once per revision of the set's distribution. */
export function scoreDistDocOf(db: DB, r: DistRow): ScoreDistDoc {
  let cache = encodedDists.get(db);
  if (!cache) encodedDists.set(db, (cache = new LRUCache({ max: 1000 })));
  const key = `${r.qsid}:${r.rev}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const doc = scoreDistDoc(r);
  cache.set(key, doc);
  return doc;
}

/** The same distribution with its histograms as two lists each, for an app of protocol 1.0 (docs/live-tests.md "Older apps"). */
export function scoreDistListsDoc(r: DistRow): ScoreDistListsDoc {
  return { id: r.qsid, n: r.n, t: r.t, s: r.s, at: r.at, _deleted: r.deleted };
}

export function tagDoc(r: typeof tag.$inferSelect): TagDoc {
  return { id: r.tid, key: r.key as TagDoc['key'], tid: r.tid, tags: r.tags, uat: r.uat, _deleted: r.deleted };
}

/** A set learners may not see (unpublished, a draft or deleted, question-access.ts) replicates as deleted. */
const visible = isVisibleSet;

/**
 * How a document is built: for replication (what every device may hold), or as an editor's
 * preview of the set (GET /question/previewQuestionSet, docs/authoring.md "Publishing and unpublishing"): a live set shown whatever
 * its publication state, drafts included, with every correct answer (the editor checks them;
 * nothing of it is stored on a device).
 */
export type DocOptions = { preview?: boolean; guest?: boolean };
/**
 * Guests (docs/replication.md "Guests": anonymous users may take exams) hold the published sets marked
 * "Free for everyone", and no correct answers: their result is scored by the server once they
 * sign up or log in.
 */
const shown = (r: SetRow, opts: DocOptions) => (opts.preview ? !r.deleted : visible(r) && (!opts.guest || r.free));

/** Sets as devices replicate them, with their questions' tags. */
export async function questionSetDocs(db: Conn, rows: SetRow[]): Promise<QuestionSetDoc[]> {
  return setDocs(db, rows, {});
}

/** Sets as a guest's device replicates them (DocOptions.guest). */
export async function guestSetDocs(db: Conn, rows: SetRow[]): Promise<QuestionSetDoc[]> {
  return setDocs(db, rows, { guest: true });
}

/** A set as its editor's preview shows it (DocOptions). */
export async function previewSetDoc(db: Conn, r: SetRow): Promise<QuestionSetDoc> {
  return (await setDocs(db, [r], { preview: true }))[0]!;
}

async function setDocs(db: Conn, rows: SetRow[], opts: DocOptions): Promise<QuestionSetDoc[]> {
  const tags = await setTagsOf(
    db,
    rows.filter((r) => shown(r, opts)),
  );
  return rows.map((r) => setDoc(r, opts, tags.get(r.id) ?? NO_SET_TAGS));
}

/** The subjects, exams and classes of each set's questions, in one read per 500 questions. */
async function setTagsOf(db: Conn, rows: SetRow[]): Promise<Map<string, SetTags>> {
  const ids = [...new Set(rows.flatMap(distinctSetQuestionIds))];
  const byQuestion = new Map<string, { s: string | null; e: string[]; c: string[] }>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const q of await db.select({ id: question.id, s: question.s, e: question.e, c: question.c }).from(question).where(inArray(question.id, ids.slice(i, i + 500)))) {
      byQuestion.set(q.id, q);
    }
  }
  const out = new Map<string, SetTags>();
  for (const r of rows) {
    const s = new Set<string>();
    const e = new Set<string>();
    const c = new Set<string>();
    for (const id of distinctSetQuestionIds(r)) {
      const q = byQuestion.get(id);
      if (!q) continue;
      if (q.s?.trim()) s.add(q.s.trim());
      for (const x of q.e) if (x.trim()) e.add(x.trim());
      for (const x of q.c) if (x.trim()) c.add(x.trim());
    }
    const sorted = (set: Set<string>) => [...set].sort().slice(0, 200);
    out.set(r.id, { s: sorted(s), e: sorted(e), c: sorted(c) });
  }
  return out;
}

function setDoc(r: SetRow, opts: DocOptions, tags: SetTags): QuestionSetDoc {
  if (!shown(r, opts)) {
    return {
      id: r.id,
      l: '',
      mpq: 0,
      tm: 0,
      nm: 0,
      dur: 0,
      isM: false,
      free: false,
      inst: '',
      pts: 0,
      n: 0,
      sections: {},
      trans: {},
      total: 0,
      count: 0,
      updatedAt: r.updatedAt,
      v: r.detailRev,
      tags: NO_SET_TAGS,
      _deleted: true,
    };
  }
  // Every part's total is its questions × its marks per question, whatever an editor typed or
  // left at 0 (docs/exams.md "Total marks"): learners never see a total the result disagrees with.
  const named = (names: Partial<Record<string, string>> | undefined) => (names && Object.keys(names).length > 0 ? { names: names as Record<string, string> } : {});
  const sections: QuestionSetDoc['sections'] = {};
  let count = r.q.length;
  for (const [name, s] of Object.entries(r.sections)) {
    const sub = s.sub
      ? Object.fromEntries(Object.entries(s.sub).map(([k, v]) => [k, { n: v.q.length, mpq: v.mpq, tm: partMarks(v.q.length, v.mpq), nm: v.nm, o: v.o, ...named(v.names) }]))
      : undefined;
    const n = s.q.length + Object.values(s.sub ?? {}).reduce((a, v) => a + v.q.length, 0);
    // A section with sub-sections carries no marks of its own: its sub-sections do.
    const tm = s.ss ? 0 : partMarks(s.q.length, s.mpq);
    count += n;
    sections[name] = { ss: s.ss, n, mpq: s.mpq, tm, nm: s.nm, o: s.o, ...named(s.names), ...(sub && { sub }) };
  }
  return {
    id: r.id,
    l: r.l,
    mpq: r.mpq,
    tm: partMarks(r.q.length, r.mpq),
    nm: r.nm,
    dur: r.dur,
    isM: r.isM,
    free: r.free,
    inst: r.inst,
    pts: r.pts,
    n: r.q.length,
    sections,
    trans: Object.fromEntries(Object.entries(r.trans).flatMap(([lang, tr]) => (tr ? [[lang, { l: tr.l, inst: tr.inst }]] : []))),
    total: setTotalMarks({ n: r.q.length, mpq: r.mpq, sections }),
    count,
    updatedAt: r.updatedAt,
    v: r.detailRev,
    tags,
    _deleted: false,
  };
}

/**
 * The offline copy of a set: parts with question ids and the questions in every language. Which
 * questions come, and which with their correct answers, is question-access.ts's decision for a
 * reader without QUESTION_EDITOR (every device replicates the same documents): a mock test's
 * answers stay on the server (ARCHITECTURE decision 4), and so do a practice set's answers to
 * questions a mock test also holds. A live test's questions (never with answers) travel sealed
 * with its key in `live` (docs/live-tests.md "The key schedule"); its editor's preview is plain.
 */
export async function qsDetailDocs(db: Conn, rows: SetRow[], opts: DocOptions = {}): Promise<QsDetailDoc[]> {
  const docs = plainDetailDocs(db, rows, opts);
  if (opts.preview === true) return docs;
  const lives = await liveOfSets(
    db,
    rows.filter((r) => shown(r, opts)).map((r) => r.id),
  );
  if (lives.size === 0) return docs;
  return Promise.all(
    (await docs).map(async (d, i) => {
      const live = lives.get(d.id);
      if (!live || d._deleted) return d;
      return { ...d, questions: [], live: await sealedDetail(live, rows[i]!.detailRev, d.questions.map(withoutAnswers)) };
    }),
  );
}

/** A live test's question carries no answer, whatever the set (docs/live-tests.md: its answers are published at the result time). */
function withoutAnswers(q: TestQuestion): TestQuestion {
  const { ca: _ca, expl: _expl, ...rest } = q;
  return { ...rest, trans: Object.fromEntries(Object.entries(q.trans).map(([lang, { ca: _c, expl: _e, ...tr }]) => [lang, tr])) };
}

async function plainDetailDocs(db: Conn, rows: SetRow[], opts: DocOptions): Promise<QsDetailDoc[]> {
  const live = rows.filter((r) => shown(r, opts));
  const ids = [...new Set(live.flatMap(distinctSetQuestionIds))];
  const questions = new Map<string, typeof question.$inferSelect>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const q of await db.select().from(question).where(inArray(question.id, ids.slice(i, i + 500)))) questions.set(q.id, q);
  }
  const access = await accessTo(db, [...questions.values()], { editor: opts.preview === true });
  return rows.map((r) => {
    if (!shown(r, opts)) {
      return { id: r.id, isM: false, main: { q: [], mpq: 0, tm: 0, nm: 0, o: 0 }, sections: {}, questions: [], v: r.detailRev, _deleted: true };
    }
    const qs: TestQuestion[] = [];
    for (const id of distinctSetQuestionIds(r)) {
      const q = questions.get(id);
      const a = access.get(id);
      if (!q || !a) continue;
      // A mock test never carries answers, whatever else holds the question (but to its editor's preview).
      const withAnswers = a.withAnswers && (!r.isM || opts.preview === true) && opts.guest !== true;
      qs.push({
        id: q.id,
        q: q.q,
        ops: q.ops,
        qt: q.qt as TestQuestion['qt'],
        d: q.d,
        ...(withAnswers && { ca: q.ca }),
        // The explanation goes exactly where the answers go (docs/exams.md "Explanations").
        ...(withAnswers && q.expl && { expl: q.expl }),
        // A machine translation no editor has saved yet (docs/configuration.md "Machine translation") is not shown to learners:
        // the test screen falls back to English for that language.
        trans: Object.fromEntries(
          Object.entries(q.trans)
            .filter(([, tr]) => tr.mt !== true || opts.preview === true)
            .map(([lang, tr]) => [lang, { q: tr.q, ops: tr.ops, ...(withAnswers && { ca: tr.ca }), ...(withAnswers && tr.expl && { expl: tr.expl }) }]),
        ),
      });
    }
    const present = new Set(qs.map((q) => q.id));
    const keep = (list: string[]) => list.filter((id) => present.has(id));
    return {
      id: r.id,
      isM: r.isM,
      main: { q: keep(r.q), mpq: r.mpq, tm: partMarks(keep(r.q).length, r.mpq), nm: r.nm, o: 0 },
      sections: Object.fromEntries(
        Object.entries(r.sections).map(([name, s]) => [
          name,
          {
            ss: s.ss,
            q: keep(s.q),
            mpq: s.mpq,
            tm: partMarks(keep(s.q).length, s.mpq),
            nm: s.nm,
            o: s.o,
            ...(s.sub && {
              sub: Object.fromEntries(Object.entries(s.sub).map(([k, v]) => [k, { q: keep(v.q), mpq: v.mpq, tm: partMarks(keep(v.q).length, v.mpq), nm: v.nm, o: v.o }])),
            }),
          },
        ]),
      ),
      questions: qs,
      v: r.detailRev,
      _deleted: false,
    };
  });
}

export function testSummaryDoc(r: typeof attempt.$inferSelect): TestSummaryDoc {
  return {
    id: r.id,
    qsid: r.qsid,
    st: r.startedAt,
    sfs: r.serverFirstSeen,
    lsq: r.lsq,
    index: r.idx,
    selectedSection: r.selectedSection,
    answers: r.answers as TestSummaryDoc['answers'],
    status: r.status as TestSummaryDoc['status'],
    submittedAt: r.submittedAt,
    // Absent when the device never sent it: the server returns exactly what it stored, or the
    // device's compare-and-set would see a difference that is not there.
    ...(r.elapsed !== null && { elapsed: r.elapsed }),
    updatedAt: r.updatedAt,
    _deleted: r.deleted,
  };
}

type ResultRow = typeof examResult.$inferSelect;

/** A question with its correct answers in every language, as a result shows it. */
export function resultQuestion(q: Pick<typeof question.$inferSelect, 'id' | 'q' | 'ops' | 'qt' | 'd' | 'ca' | 'trans'> & { expl?: string | undefined }): ResultQuestion {
  return {
    id: q.id,
    q: q.q,
    ops: q.ops,
    qt: q.qt as ResultQuestion['qt'],
    d: q.d,
    ca: q.ca,
    ...(q.expl && { expl: q.expl }),
    trans: Object.fromEntries(Object.entries(q.trans).map(([lang, tr]) => [lang, { q: tr.q, ops: tr.ops, ca: tr.ca ?? [], ...(tr.expl && { expl: tr.expl }) }])),
  };
}

/**
 * Questions as results show them, per database, with the revision they were built from: a
 * result carries up to 1000 questions in every language, and building them (reading and parsing
 * their JSON columns) costs far more than asking which of them changed. The statements are
 * prepared once per handle they run on (ids go in as one JSON array, db/dialect.ts).
 */
const resultQuestions = new WeakMap<DB, ReturnType<typeof prepareResultQuestions>>();
const MAX_CACHED_QUESTIONS = 20_000;
function prepareResultQuestions(db: DB) {
  const inIds = inJsonArray(db, question.id, sql.placeholder('ids'));
  return {
    revs: prepared(db, db.select({ id: question.id, rev: question.rev, version: question.version }).from(question).where(inIds)),
    rows: prepared(db, db.select().from(question).where(inIds)),
    // Pairs [id, version] as one JSON array.
    versions: prepared(
      db,
      db
        .select({ id: questionVersion.questionId, version: questionVersion.version, data: questionVersion.data })
        .from(questionVersion)
        .where(inJsonPairs(db, questionVersion.questionId, questionVersion.version, sql.placeholder('pairs'))),
    ),
    cache: new Map<string, { rev: number; q: ResultQuestion }>(),
    /** Earlier versions as results show them, by `id@version`: a version never changes, so no revision to check. */
    pinned: new Map<string, ResultQuestion>(),
  };
}

const pinKey = (id: string, version: number) => `${id}@${version}`;

/**
 * Scored results with their questions (correct answers included: the learner has submitted).
 * The questions are those the result holds answers for (every question of the set when it was
 * scored), in part order; soft-deleted questions are still shown. Each question is shown as it
 * was when the result was scored (docs/authoring.md "Publishing and unpublishing"): a result names those versions (`qv`), and where
 * an editor has changed a question since, its version is read from question_version. Results
 * from before versions (empty `qv`), and versions that were never recorded, show the current text.
 */
export async function examResultDocs(db: DB, rows: ResultRow[]): Promise<ExamResultDoc[]> {
  const ids = [...new Set(rows.flatMap((r) => Object.values(r.userRes).flatMap((part) => Object.keys(part))))];
  let p = resultQuestions.get(db);
  if (!p) resultQuestions.set(db, (p = prepareResultQuestions(db)));
  const questions = new Map<string, ResultQuestion>();
  const current = new Map<string, number>();
  const stale: string[] = [];
  for (const { id, rev, version } of await p.revs.all({ ids: JSON.stringify(ids) })) {
    current.set(id, version);
    const hit = p.cache.get(id);
    if (hit && hit.rev === rev) questions.set(id, hit.q);
    else stale.push(id);
  }
  if (stale.length > 0) {
    if (p.cache.size + stale.length > MAX_CACHED_QUESTIONS) p.cache.clear();
    for (const q of await p.rows.all({ ids: JSON.stringify(stale) })) {
      const built = resultQuestion(q);
      p.cache.set(q.id, { rev: q.rev, q: built });
      questions.set(q.id, built);
    }
  }
  const pinned = await pinnedVersions(p, rows, current);
  return rows.map((r) => examResultDoc(r, questions, pinned));
}

/** The earlier versions `rows` were scored against (questions changed since), by `id@version`. */
async function pinnedVersions(
  p: ReturnType<typeof prepareResultQuestions>,
  rows: ResultRow[],
  current: ReadonlyMap<string, number>,
): Promise<ReadonlyMap<string, ResultQuestion>> {
  const out = new Map<string, ResultQuestion>();
  const missing = new Map<string, [string, number]>();
  for (const r of rows) {
    for (const [id, version] of Object.entries(r.qv)) {
      if (current.get(id) === version || current.get(id) === undefined) continue;
      const key = pinKey(id, version);
      const hit = p.pinned.get(key);
      if (hit) out.set(key, hit);
      else missing.set(key, [id, version]);
    }
  }
  if (missing.size > 0) {
    if (p.pinned.size + missing.size > MAX_CACHED_QUESTIONS) p.pinned.clear();
    for (const v of await p.versions.all({ pairs: JSON.stringify([...missing.values()]) })) {
      const data = v.data as Omit<ResultQuestion, 'id'>;
      const built = resultQuestion({ id: v.id, q: data.q, ops: data.ops, qt: data.qt, d: data.d, ca: data.ca, expl: data.expl, trans: data.trans });
      p.pinned.set(pinKey(v.id, v.version), built);
      out.set(pinKey(v.id, v.version), built);
    }
  }
  return out;
}

export function examResultDoc(r: ResultRow, questions: ReadonlyMap<string, ResultQuestion>, pinned: ReadonlyMap<string, ResultQuestion> = new Map()): ExamResultDoc {
  const qs: ResultQuestion[] = [];
  for (const part of Object.values(r.userRes)) {
    for (const id of Object.keys(part)) {
      const version = r.qv[id];
      const q = (version !== undefined && pinned.get(pinKey(id, version))) || questions.get(id);
      if (q) qs.push(q);
    }
  }
  return {
    id: r.id,
    qsid: r.qsid,
    attemptId: r.attemptId,
    marks: r.marks,
    outOf: r.outOf,
    userRes: r.userRes as ExamResultDoc['userRes'],
    totalMarks: r.totalMarks,
    total: r.total,
    questions: qs,
    late: r.late,
    practice: r.practice,
    pending: r.pending,
    submittedAt: r.submittedAt,
    elapsed: r.elapsed,
    et: r.et,
    receipt: r.receipt,
    _deleted: r.deleted,
  };
}
