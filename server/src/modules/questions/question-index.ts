import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { QuestionListQuery } from '@pm/protocol/question';
import { Parser } from 'htmlparser2';
import type { Conn, DB } from '../../db/client';
import { likeAnywhere, lockRows, statementKey, trigramSearch } from '../../db/dialect';
import { question, questionSearch, questionTag, questionVersion } from '../../db/schema';
import { row, transaction } from '../../db/transaction';
import type { Actor } from '../../lib/activity';
import { rawStatement, rowEncoder } from '../../lib/raw-statement';
import { type VersionAction, versionData, writeVersion } from './question-history';
import { translationRows, translationRowsMissing } from './translation-state';

/*
 * What the question list filters and searches on (docs/authoring.md): a question's tags, one row per
 * tag in question_tag, and its words without markup in question_search, under a trigram index
 * (SQLite: the full-text table question_fts of migration 0007, kept by triggers; PostgreSQL: a
 * pg_trgm index on question_search.body, migrations-pg 0001, which the search reads directly).
 * Both are written here, inside the transaction that writes the question, by every path that
 * writes one (the questions service, the seed, the benchmark data), so that the list never reads
 * the JSON columns of 50,000 questions.
 *
 * Two choices make a filtered list and its count cheap at 50,000 questions (checked with EXPLAIN
 * QUERY PLAN and timed in process on a generated bank of 50,000 in English and Hindi: with two
 * filters and a word, p95 of a count went from ~52 ms to ~9 ms, of a page of 25 from ~38 to ~13):
 * - question_tag also holds the question's type, difficulty and status as facets (`qt:mcq1`,
 *   `d:3`, `st:APPROVED`; a tag id never holds ':', tidSchema), so that every filter is a set of
 *   ids read from one covering index, and the sets are intersected without reading a question row.
 * - Only live questions are indexed: a soft delete removes the rows (unindexQuestion), so a count
 *   needs no look at `question.deleted`.
 */

type QuestionRow = typeof question.$inferSelect;
type Indexed = Pick<QuestionRow, 'id' | 'q' | 'ops' | 'ca' | 'qt' | 'd' | 'st' | 's' | 'c' | 't' | 'e' | 'trans' | 'deleted'>;

/**
 * Elements whose text runs on into the text around them (`H<sub>2</sub>O` is one word); every
 * other element (paragraphs, list items, cells, line breaks, images) separates words.
 */
const INLINE = new Set(['span', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'mark', 'sub', 'sup', 'small', 'code', 'a', 'abbr', 'wbr']);
/** Elements whose content is no text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'iframe', 'object']);

/**
 * The text of rich text as a reader sees it, entities decoded, through htmlparser2's streaming
 * parser (no DOM is built). A formula counts as its LaTeX source (`data-latex` of the editor's
 * math nodes, `data-value` of older formula spans), not as the glyphs KaTeX rendered for it, so
 * that an editor finds `\frac` or `x^2`; an image counts as its alt text.
 */
export function plainText(html: string): string {
  if (PLAIN_PARAGRAPH.test(html)) return plainParagraphText(html);
  const out: string[] = [];
  // Per open element, whether it hides its content; `hidden` counts those open.
  const hides: boolean[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        let hide = false;
        if (hidden === 0) {
          if (!INLINE.has(name)) out.push(' ');
          const source = attribs['data-latex'] ?? (name === 'span' ? attribs['data-value'] : undefined);
          if (source !== undefined) {
            out.push(' ', source, ' ');
            hide = true;
          } else if (HIDDEN.has(name)) {
            hide = true;
          } else if (name === 'img' && attribs.alt) {
            out.push(' ', attribs.alt, ' ');
          }
        }
        hides.push(hide);
        if (hide) hidden++;
      },
      ontext(text) {
        if (hidden === 0) out.push(text);
      },
      onclosetag(name) {
        if (hides.pop()) hidden--;
        if (hidden === 0 && !INLINE.has(name)) out.push(' ');
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out.join('');
}

/**
 * One paragraph of plain text as the editor and the import write it (`<p>` around text whose only
 * markup is `<br />` and whose only entities are &amp; &lt; &gt;): most texts of a question bank.
 * Its text is read without the parser, character for character what the parser gives (a space
 * for each tag opened and closed; tested against it), which an import of 5,000 bilingual rows
 * reads 150,000 times (duplicate hashes of preview and store, search text).
 */
const PLAIN_CHARS = '(?:[^<>&]|&(?:amp|lt|gt);)*';
const PLAIN_PARAGRAPH = new RegExp(`^<p>${PLAIN_CHARS}(?:<br />${PLAIN_CHARS})*</p>$`);
const ENTITY: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
function plainParagraphText(html: string): string {
  const inner = html.slice(3, -4).replaceAll('<br />', '  ');
  return ` ${inner.includes('&') ? inner.replace(/&(?:amp|lt|gt);/g, (e) => ENTITY[e]!) : inner} `;
}

/** Whitespace that is not one plain space between words: what normaliseText replaces. */
const SPACE_TO_FOLD = /\s\s|[^\S ]/;
/** Lower case, one form of Unicode (Hindi typed on different keyboards), single spaces. */
export function normaliseText(text: string): string {
  const t = text.normalize('NFC').toLowerCase();
  // Most texts have single spaces already: looking costs a third of replacing (an import hashes 100,000 texts).
  return (SPACE_TO_FOLD.test(t) ? t.replace(/\s+/g, ' ') : t).trim();
}

/** Answers that are words (fill in the blank, subjective); those of mcq1/mcq2 are option keys. */
const answersAreText = (qt: string) => qt === 'f' || qt === 's';

/** What the search reads of a question: question, options and textual answers in every language. */
export function searchBody(q: Pick<Indexed, 'q' | 'ops' | 'ca' | 'qt' | 'trans'>): string {
  const parts: string[] = [q.q, ...Object.values(q.ops)];
  if (answersAreText(q.qt)) parts.push(...q.ca);
  for (const tr of Object.values(q.trans)) {
    parts.push(tr.q, ...Object.values(tr.ops));
    if (answersAreText(q.qt)) parts.push(...tr.ca);
  }
  return normaliseText(parts.map(plainText).join(' '));
}

/** Every tag a question carries (groups s, c, t, e), once each. */
export function tagsOf(q: Pick<Indexed, 's' | 'c' | 't' | 'e'>): string[] {
  return [...new Set([...(q.s ? [q.s] : []), ...q.c, ...q.t, ...q.e])];
}

/** The facet rows of type, difficulty and status (see above). */
const facet = (name: 'qt' | 'd' | 'st', value: string) => `${name}:${value}`;

/** The version row a write records with the index (question-history.ts). */
export type VersionOf = { action: VersionAction; actor: Actor; restoredFrom?: number };

/**
 * Writes a question's question_tag rows (tags and facets) and its question_search row (on SQLite
 * the triggers of migration 0007 keep question_fts in step) and, given `version`, the
 * question_version row of the row as written. Call inside the transaction that writes the
 * question: the services, the seed and tools that insert questions directly all record a
 * question the same way. A deleted question is left out of the index (and taken out of it).
 */
export async function indexQuestion(tx: Conn, q: QuestionRow, version: VersionOf): Promise<void>;
export async function indexQuestion(tx: Conn, q: Indexed): Promise<void>;
export async function indexQuestion(tx: Conn, q: Indexed | QuestionRow, version?: VersionOf): Promise<void> {
  if (version) await writeVersion(tx, q as QuestionRow, version.action, version.actor, version.restoredFrom);
  if (q.deleted) {
    await unindexQuestion(tx, q.id);
    return;
  }
  await tx.delete(questionTag).where(eq(questionTag.questionId, q.id));
  // tr:/trs:/trd:<lang> rows (docs/configuration.md "Machine translation"), a translation present, stale, a machine draft.
  const tids = [...tagsOf(q), facet('qt', q.qt), facet('d', q.d), facet('st', q.st), ...translationRows(q)];
  await tx
    .insert(questionTag)
    .values(tids.map((tid) => ({ tid, questionId: q.id })))
    .onConflictDoNothing();
  const body = searchBody(q);
  await tx
    .insert(questionSearch)
    .values({ questionId: q.id, body })
    .onConflictDoUpdate({ target: questionSearch.questionId, set: { body }, setWhere: sql`${questionSearch.body} is distinct from excluded.body` });
}

const P = (name: string) => sql`${sql.placeholder(name)}`;

/** indexQuestion's statements, prepared once per handle they run on (see indexQuestions). */
function prepareIndex(db: DB) {
  const encodeVersion = rowEncoder(questionVersion);
  const version = rawStatement(
    db,
    db
      .insert(questionVersion)
      .values({ questionId: P('questionId'), version: P('version'), data: P('data'), action: P('action'), actorId: P('actorId'), actorName: P('actorName'), createdAt: P('createdAt') })
      .onConflictDoNothing(),
  );
  const deleteTags = rawStatement(db, db.delete(questionTag).where(eq(questionTag.questionId, P('questionId'))));
  const insertTag = rawStatement(db, db.insert(questionTag).values({ tid: P('tid'), questionId: P('questionId') }).onConflictDoNothing());
  const upsertSearch = rawStatement(
    db,
    db
      .insert(questionSearch)
      .values({ questionId: P('questionId'), body: P('body') })
      .onConflictDoUpdate({ target: questionSearch.questionId, set: { body: P('body') }, setWhere: sql`${questionSearch.body} is distinct from excluded.body` }),
  );
  const deleteSearch = rawStatement(db, db.delete(questionSearch).where(eq(questionSearch.questionId, P('questionId'))));
  // Each returns what the raw statement's run returned: a promise on PostgreSQL, the result itself on SQLite.
  return {
    /** writeVersion (question-history.ts), column for column. */
    version: (row: QuestionRow, v: VersionOf) =>
      version.run(
        encodeVersion({
          questionId: row.id,
          version: row.version,
          data: { ...versionData(row), ...(v.restoredFrom !== undefined && { restoredFrom: v.restoredFrom }) },
          action: v.action,
          actorId: v.actor?.id ?? null,
          actorName: v.actor?.name ?? null,
          createdAt: row.updatedAt,
        }),
      ),
    deleteSearch: (questionId: string) => deleteSearch.run({ questionId }),
    deleteTags: (questionId: string) => deleteTags.run({ questionId }),
    insertTag: (questionId: string, tid: string) => insertTag.run({ questionId, tid }),
    upsertSearch: (questionId: string, body: string) => upsertSearch.run({ questionId, body }),
  };
}
const preparedIndex = new WeakMap<object, ReturnType<typeof prepareIndex>>();

/**
 * indexQuestion(tx, row, version) for each of `rows` in turn, for batch writes (a question
 * import writes 5,000): the same statements, prepared once per handle and run by the driver
 * directly (lib/raw-statement), because building each of them with Drizzle cost several times
 * what SQLite took to run it. Call inside the transaction that wrote the rows, with its handle
 * (`tx`: a statement is bound to the handle it was prepared on; on SQLite the transaction's
 * handle is one object for every transaction of a database, so they are prepared once).
 * SQLite runs each statement at once; PostgreSQL's go out in order on the transaction's
 * connection and are awaited together at the end (the first failure fails the whole call).
 */
export async function indexQuestions(tx: DB, rows: readonly QuestionRow[], version: VersionOf): Promise<void> {
  const key = statementKey(tx);
  let s = preparedIndex.get(key);
  if (!s) {
    s = prepareIndex(tx);
    preparedIndex.set(key, s);
  }
  const pending: Promise<unknown>[] = [];
  const wait = (r: unknown) => {
    if (r instanceof Promise) pending.push(r);
  };
  for (const q of rows) {
    wait(s.version(q, version));
    wait(s.deleteTags(q.id));
    if (q.deleted) {
      wait(s.deleteSearch(q.id));
      continue;
    }
    for (const tid of new Set([...tagsOf(q), facet('qt', q.qt), facet('d', q.d), facet('st', q.st), ...translationRows(q)])) wait(s.insertTag(q.id, tid));
    wait(s.upsertSearch(q.id, searchBody(q)));
  }
  await Promise.all(pending);
}

/** Takes a (soft-deleted) question out of the list's index. */
export async function unindexQuestion(tx: Conn, id: string): Promise<void> {
  await tx.delete(questionTag).where(eq(questionTag.questionId, id));
  await tx.delete(questionSearch).where(eq(questionSearch.questionId, id));
}

const BACKFILL_BATCH = 1000;

/**
 * Makes the index hold exactly the live questions: indexes those without a question_search row
 * (a database from before migration 0007, which could not strip markup in SQL, or questions a
 * tool wrote directly) and takes deleted ones out (migration 0007 gave every question its tag
 * rows). Run when the questions module starts. With nothing to do it costs two counts and a look
 * at the deleted end of question_list_idx: every question_search row belongs to a distinct live
 * question, so equal counts mean none is missing. Returns how many were indexed.
 */
export async function indexMissingQuestions(db: DB): Promise<number> {
  // A database from before translation rows existed has none: every live question is indexed again.
  if (await translationRowsMissing(db)) await db.delete(questionSearch);
  await transaction(db, async (tx) => {
    const deleted = sql`(select ${question.id} from ${question} where ${eq(question.deleted, true)})`;
    await tx.delete(questionTag).where(sql`${questionTag.questionId} in ${deleted}`);
    await tx.delete(questionSearch).where(sql`${questionSearch.questionId} in ${deleted}`);
  });
  const counts = (await row<{ live: number; indexed: number }>(
    db,
    sql`select (select count(*) from ${question} where ${eq(question.deleted, false)}) as live, (select count(*) from ${questionSearch}) as indexed`,
  ))!;
  if (Number(counts.live) === Number(counts.indexed)) return 0;
  let done = 0;
  // In the order of the primary key, which both engines keep an index of.
  let after = '';
  const unindexed = sql`${eq(question.deleted, false)} and not exists (select 1 from ${questionSearch} where ${questionSearch.questionId} = ${question.id})`;
  for (;;) {
    const batch = await db
      .select({ id: question.id })
      .from(question)
      .where(sql`${question.id} > ${after} and ${unindexed}`)
      .orderBy(question.id)
      .limit(BACKFILL_BATCH);
    if (batch.length === 0) return done;
    const ids = batch.map((b) => b.id);
    // Read again inside the transaction, the rows locked (on PostgreSQL; SQLite's transaction is
    // exclusive): a question deleted or edited since the read above was indexed (or left the
    // index) by its own transaction, and must not get a stale entry back from this backfill.
    done += await transaction(db, async (tx) => {
      await lockRows(tx, question, inArray(question.id, ids));
      const fresh = await tx
        .select({
          id: question.id,
          q: question.q,
          ops: question.ops,
          ca: question.ca,
          qt: question.qt,
          d: question.d,
          st: question.st,
          s: question.s,
          c: question.c,
          t: question.t,
          e: question.e,
          trans: question.trans,
          deleted: question.deleted,
        })
        .from(question)
        .where(sql`${inArray(question.id, ids)} and ${unindexed}`);
      for (const q of fresh) await indexQuestion(tx, q);
      return fresh.length;
    });
    after = batch.at(-1)!.id;
  }
}

/** Shortest word the trigram index can find (shorter ones are matched with LIKE). */
const TRIGRAM = 3;

type SearchTerms = { long: string[]; likes: string[] };

/**
 * The words of a text search (docs/exams.md list filters; docs/authoring.md), every one of which must occur
 * in a question's search text: words of three characters or more go to the trigram index
 * (db/dialect.ts trigramSearch: on SQLite one FTS5 query, each word quoted so that user input is
 * never query syntax); shorter words (the trigram index cannot find them) as LIKE patterns on the
 * same text.
 */
function searchTerms(search: string | undefined): SearchTerms | null {
  const words = [...new Set(normaliseText(search ?? '').split(' ').filter(Boolean))];
  if (words.length === 0) return null;
  return {
    long: words.filter((w) => [...w].length >= TRIGRAM),
    likes: words.filter((w) => [...w].length < TRIGRAM).map(likeAnywhere),
  };
}

/** The trigram search of the long words in question_search. */
const textSearch = (db: Conn, words: readonly string[]) =>
  trigramSearch(db, { fts: 'question_fts', table: questionSearch, id: questionSearch.id, key: questionSearch.questionId, column: questionSearch.body }, words);

/**
 * The search as a condition on a question id, checked per candidate. On SQLite the question's
 * question_search row is found through its unique index on question_id (which holds the rowid,
 * so no row is read), and its rowid looked up among the full-text matches, which SQLite
 * collects once (db/dialect.ts trigramSearch). Short words read the row's text.
 */
function searchOn(db: Conn, id: SQL, terms: SearchTerms): SQL {
  const where: SQL[] = [];
  if (terms.long.length > 0) where.push(textSearch(db, terms.long).has(id));
  if (terms.likes.length > 0) {
    const likes = sql.join(
      terms.likes.map((p) => sql`${questionSearch.body} like ${p} escape '\\'`),
      sql` and `,
    );
    where.push(sql`exists (select 1 from ${questionSearch} where ${questionSearch.questionId} = ${id} and ${likes})`);
  }
  return sql.join(where, sql` and `);
}

type Filters = Omit<QuestionListQuery, 'l' | 'o'>;

/**
 * The filters that are sets of ids in question_tag: a group of tags (any of them) or of facet
 * values (any of them). Every group must hold the question.
 */
function tagGroups(f: Filters): string[][] {
  const groups = [f.s, f.c, f.t, f.e].filter((g): g is string[] => Boolean(g?.length));
  if (f.qt?.length) groups.push(f.qt.map((v) => facet('qt', v)));
  if (f.d?.length) groups.push(f.d.map((v) => facet('d', v)));
  if (f.st?.length) groups.push(f.st.map((v) => facet('st', v)));
  const tr = translationFilter(f);
  if (tr && tr.state !== 'missing') groups.push([`${tr.state === 'stale' ? 'trs' : 'trd'}:${tr.lang}`]);
  return groups;
}

/** The translation filter (`missing:hi`, `stale:hi`, `draft:hi`; docs/configuration.md "Machine translation"), or null. */
function translationFilter(f: Filters): { state: 'missing' | 'stale' | 'draft'; lang: string } | null {
  const m = f.tr ? /^(missing|stale|draft):([a-z]{2})$/.exec(f.tr) : null;
  return m ? { state: m[1] as 'missing' | 'stale' | 'draft', lang: m[2]! } : null;
}

/** A question without a translation into the language of a `missing:` filter. */
function missingTranslation(id: SQL, f: Filters): SQL | null {
  const tr = translationFilter(f);
  if (tr?.state !== 'missing') return null;
  return sql`${id} not in (select ${questionTag.questionId} from ${questionTag} where ${questionTag.tid} = ${`tr:${tr.lang}`})`;
}

/** The ids of live questions in every group: one covering-index range per group, intersected. */
function inEveryGroup(groups: string[][]): SQL {
  return sql.join(
    groups.map((g) => sql`select ${questionTag.questionId} from ${questionTag} where ${inArray(questionTag.tid, g)}`),
    sql` intersect `,
  );
}

/**
 * The list's filters as one condition on question (the list reads question_list_idx newest
 * first and stops at the page's end; each filter is a membership test on the id), for a query
 * run on `db` (the search's SQL is the engine's).
 */
export function listCondition(db: Conn, f: Filters): SQL {
  const where: SQL[] = [eq(question.deleted, false)];
  if (f.qids?.length) where.push(inArray(question.id, f.qids));
  const groups = tagGroups(f);
  if (groups.length > 0) where.push(sql`${question.id} in (${inEveryGroup(groups)})`);
  const terms = searchTerms(f.search);
  if (terms) where.push(searchOn(db, sql`${question.id}`, terms));
  const missing = missingTranslation(sql`${question.id}`, f);
  if (missing) where.push(missing);
  return sql.join(where, sql` and `);
}

/**
 * How many live questions pass the filters, without reading question rows where it can: from
 * the intersection of the tag groups, or from the trigram index alone, or (no set-like filter)
 * from question_list_idx.
 */
export async function countQuestions(db: Conn, f: Filters): Promise<number> {
  const groups = tagGroups(f);
  const terms = searchTerms(f.search);
  const count = async (query: SQL) => Number((await row<{ n: number }>(db, query))!.n);
  if (groups.length > 0) {
    const id = sql`c.question_id`;
    const where: SQL[] = [];
    if (f.qids?.length) where.push(inArray(id, f.qids));
    if (terms) where.push(searchOn(db, id, terms));
    const missing = missingTranslation(id, f);
    if (missing) where.push(missing);
    return count(sql`select count(*) as n from (${inEveryGroup(groups)}) as c${where.length > 0 ? sql` where ${sql.join(where, sql` and `)}` : sql``}`);
  }
  if (terms && terms.long.length > 0 && terms.likes.length === 0 && !f.qids?.length && !missingTranslation(sql`1`, f)) {
    return count(textSearch(db, terms.long).count);
  }
  return count(sql`select count(*) as n from ${question} where ${listCondition(db, f)}`);
}
