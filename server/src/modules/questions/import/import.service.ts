import { createHash } from 'node:crypto';
import { distinctSetQuestionIds } from '@pm/protocol/question-set';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { MSG } from '@pm/protocol/messages';
import { QUESTION_MSG, questionInputSchema } from '@pm/protocol/question';
import {
  IMPORT_MAX_ROWS,
  type ImportConfirmInput,
  type ImportFormat,
  type ImportIssue,
  type ImportPreview,
  type ImportPreviewInput,
  type ImportPreviewRow,
  type ImportResult,
} from '@pm/protocol/question-import';
import type { Deps, Principal } from '#server/context';
import type { Conn, DB } from '#server/db/client';
import { statementKey } from '#server/db/dialect';
import { question, questionImport, questionImportRow, questionSet } from '#server/db/schema';
import { bulkSliceDone, bulkTransaction } from '#server/db/bulk-write';
import { first } from '#server/db/transaction';
import { logActivity } from '#server/lib/activity';
import { rawStatement } from '#server/lib/raw-statement';
import { badRequest, notFound } from '#server/lib/errors';
import { sanitizeRichText } from '#server/lib/sanitize';
import { mapSliced, nextTurn, type Pause, SLICE_MS, slicer } from '#server/lib/slices';
import { normaliseText, plainText } from '../question-index';
import { createManyCheckedInTransaction } from '../questions.service';
import { aikenRows, serialiseAiken } from './aiken';
import { csvRows, serialiseCsv } from './csv';
import type { ExportQuestion } from './export-question';
import { giftRows, serialiseGift } from './gift';
import { excerpt, issue, type ParsedRow } from './rows';
import { loadTags, resolveTags, type TagIndex } from './tags';

type QuestionInput = ReturnType<typeof questionInputSchema.parse>;

/** A row after its tags were looked up and its rules checked: what confirm stores. */
type Checked = { row: ImportPreviewRow; value: QuestionInput | null; hash: string | null };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const PARSERS: Record<ImportFormat, (content: string) => Iterable<ParsedRow>> = { csv: csvRows, gift: giftRows, aiken: aikenRows };

/**
 * The file as rows, or a 400 when it is not a file of that format at all. Read in slices
 * (lib/slices.ts), and no further than one row past IMPORT_MAX_ROWS.
 */
async function parseFile(format: ImportFormat, content: string, pause: Pause): Promise<ParsedRow[]> {
  // NUL or other C0 controls (tab and line breaks aside): a binary file (a spreadsheet, a PDF).
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u0008\u000e-\u001f]/.test(content.slice(0, 65_536))) throw badRequest(MSG.importNotText);
  const rows: ParsedRow[] = [];
  for (const row of PARSERS[format](content)) {
    rows.push(row);
    if (rows.length > IMPORT_MAX_ROWS) throw badRequest(MSG.importTooManyRows);
    const wait = pause();
    if (wait) await wait;
  }
  if (rows.length === 0) throw badRequest(MSG.importEmpty);
  if (format === 'gift' && rows.every((r) => r.errors.some((e) => e.code === 'unsupportedType' && e.params?.type === 'description'))) {
    throw badRequest(MSG.importNotGift);
  }
  if (format === 'aiken' && rows.every((r) => r.errors.some((e) => e.code === 'aikenNoAnswer' || e.code === 'aikenNoOptions'))) {
    throw badRequest(MSG.importNotAiken);
  }
  return rows;
}

/** A zod issue of the question's rules as an import issue the client can word in Hindi too. */
function ruleIssue(message: string, code: string, path: PropertyKey[]): ImportIssue {
  if (message === QUESTION_MSG.questionBlank) return issue('questionBlank');
  if (message === QUESTION_MSG.optionBlank) return issue('optionBlank');
  if (message === QUESTION_MSG.correctAnswerMissing) return issue('correctAnswerMissing');
  if (message === 'Only multiple-choice questions have options') return issue('optionsNotAllowed');
  if (message === QUESTION_MSG.numericAnswer) return issue('numericAnswer');
  if (message.startsWith('Translation ')) return issue('hindiIncomplete');
  if (code === 'too_big') return issue('tooLong', { field: path.map(String).join('.') });
  return issue('invalid', { message });
}

/**
 * The hash that finds a row imported before (question_import_row): type, texts without markup,
 * case or spacing, options in order, the correct options by place, textual answers as a set.
 */
export function contentHash(v: Pick<QuestionInput, 'qt' | 'q' | 'ops' | 'ca' | 'trans'>): string {
  const n = (html: string) => normaliseText(plainText(html));
  const keys = Object.keys(v.ops);
  const mcq = v.qt === 'mcq1' || v.qt === 'mcq2';
  const answers = (ca: string[]) => (mcq ? ca.map((k) => keys.indexOf(k)).sort((a, b) => a - b) : ca.map(normaliseText).sort());
  const trans = Object.keys(v.trans)
    .sort()
    .map((lang) => {
      const tr = v.trans[lang]!;
      return [lang, n(tr.q), keys.map((k) => n(tr.ops[k] ?? '')), mcq ? [] : answers(tr.ca)];
    });
  return sha256(JSON.stringify([v.qt, n(v.q), keys.map((k) => n(v.ops[k]!)), answers(v.ca), trans]));
}

/**
 * Rich text sanitised as POST /api/question sanitises it (lib/sanitize). A plain-text cell becomes
 * `<p>text</p>` with only &amp; &lt; &gt; escaped and `<br />` line breaks (rows.plainToHtml),
 * which the sanitiser returns unchanged (tested); such texts skip it (it costs ~75 µs a text, and
 * a 5,000-row bilingual file has 50,000 texts). Everything else goes through it.
 */
const PLAIN_TEXT = '(?:[^<>&]|&(?:amp|lt|gt);)*';
export const PLAIN_PARAGRAPH = new RegExp(`^<p>${PLAIN_TEXT}(?:<br />${PLAIN_TEXT})*</p>$`);
const sanitized = (html: string) => (PLAIN_PARAGRAPH.test(html) ? html : sanitizeRichText(html));
const sanitizedMap = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, sanitized(v)]));

function check(tags: TagIndex, parsed: ParsedRow): Checked {
  const row: ImportPreviewRow = {
    n: parsed.n,
    ...(parsed.line !== undefined && { line: parsed.line }),
    ...(parsed.title && { title: parsed.title }),
    qt: parsed.qt,
    text: parsed.text ?? (parsed.draft ? excerpt(parsed.draft.q) : ''),
    errors: [...parsed.errors],
    warnings: [...parsed.warnings],
  };
  const d = parsed.draft;
  if (!d) return { row, value: null, hash: null };
  const resolved = resolveTags(tags, d.tags);
  row.errors.push(...resolved.errors);
  row.warnings.push(...resolved.warnings);
  const trans = Object.fromEntries(
    Object.entries(d.trans ?? {}).map(([lang, tr]) => [lang, { q: sanitized(tr.q), ops: sanitizedMap(tr.ops), ca: tr.ca, ...(tr.expl && { expl: sanitized(tr.expl) }) }]),
  );
  const candidate = { q: sanitized(d.q), ops: sanitizedMap(d.ops), ca: d.ca, qt: d.qt, d: d.d ?? '3', ...(d.expl && { expl: sanitized(d.expl) }), ...resolved.tags, trans, st: 'PENDING' };
  const r = questionInputSchema.safeParse(candidate);
  if (!r.success) {
    for (const i of r.error.issues) {
      const mapped = ruleIssue(i.message, i.code, i.path);
      if (!row.errors.some((e) => e.code === mapped.code)) row.errors.push(mapped);
    }
  }
  if (row.errors.length > 0 || !r.success) return { row, value: null, hash: null };
  return { row, value: r.data, hash: contentHash(r.data) };
}

/** The live questions earlier imports made of these hashes. */
async function importedBefore(db: Conn, hashes: string[], pause: Pause): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < hashes.length; i += 500) {
    const wait = pause();
    if (wait) await wait;
    const part = hashes.slice(i, i + 500);
    const found = await db
      .select({ hash: questionImportRow.hash, id: questionImportRow.questionId })
      .from(questionImportRow)
      .innerJoin(question, eq(question.id, questionImportRow.questionId))
      .where(and(inArray(questionImportRow.hash, part), eq(question.deleted, false)));
    for (const f of found) out.set(f.hash, f.id);
  }
  return out;
}

/**
 * Parses and checks a file: the preview, and the rows confirm stores. Writes nothing. The work
 * goes in slices that give the event loop back (lib/slices.ts; docs/security.md, "Files in and
 * out"): a 10,000-row file took seconds in one piece, and every other request waited.
 */
async function analyse(db: Conn, input: ImportPreviewInput, pause: Pause): Promise<{ preview: ImportPreview; checked: Checked[] }> {
  const rows = await parseFile(input.format, input.content, pause);
  const tags = await loadTags(db);
  const checked = await mapSliced(rows, (r) => check(tags, r), pause);
  const before = await importedBefore(
    db,
    checked.flatMap((c) => (c.hash ? [c.hash] : [])),
    pause,
  );
  const firstRow = new Map<string, number>();
  for (const c of checked) {
    if (!c.hash) continue;
    const id = before.get(c.hash);
    if (id) c.row.duplicateOf = id;
    const earlier = firstRow.get(c.hash);
    if (earlier !== undefined) c.row.duplicateOfRow = earlier;
    else firstRow.set(c.hash, c.row.n);
  }
  const fileHash = sha256(input.content);
  const last = await first(db.select().from(questionImport).where(eq(questionImport.fileHash, fileHash)).orderBy(desc(questionImport.createdAt)).limit(1));
  const valid = checked.filter((c) => c.value).length;
  return {
    checked,
    preview: {
      fileName: input.fileName,
      format: input.format,
      fileHash,
      importedBefore: last ? { at: last.createdAt, fileName: last.fileName, stored: last.stored } : null,
      rows: checked.map((c) => c.row),
      counts: {
        rows: checked.length,
        valid,
        invalid: checked.length - valid,
        duplicates: checked.filter((c) => c.row.duplicateOf !== undefined || c.row.duplicateOfRow !== undefined).length,
      },
    },
  };
}

/** POST /api/question/import/preview: every row with its errors, warnings and duplicates; nothing stored. */
export async function preview(deps: Deps, input: ImportPreviewInput) {
  return { success: true as const, data: (await analyse(deps.db, input, slicer())).preview };
}

const P = (name: string) => sql`${sql.placeholder(name)}`;
const importRowUpserts = new WeakMap<object, ReturnType<typeof rawStatement>>();
/**
 * Records a stored row's hash (one imported before now names the new question), by a statement
 * prepared once on the transaction's handle it runs on (an import records 5,000; see
 * createManyCheckedInTransaction). Returns what the raw statement's run returns (a promise on
 * PostgreSQL, to be awaited).
 */
function rememberImportRow(tx: DB, row: typeof questionImportRow.$inferInsert): unknown {
  const key = statementKey(tx);
  let stmt = importRowUpserts.get(key);
  if (!stmt) {
    stmt = rawStatement(
      tx,
      tx
        .insert(questionImportRow)
        .values({ hash: P('hash'), questionId: P('questionId'), importId: P('importId') })
        .onConflictDoUpdate({ target: questionImportRow.hash, set: { questionId: P('questionId'), importId: P('importId') } }),
    );
    importRowUpserts.set(key, stmt);
  }
  return stmt.run(row);
}

/** Rows written by the first slice of a store; later slices take as many as the last took STORE_SLICE_MS to write. */
const FIRST_SLICE = 16;
/**
 * What a slice of writes aims at: half a reading slice, because a write slice now and then takes
 * two or three times its share (the full-text index merging its segments, the cache spilling).
 */
const STORE_SLICE_MS = SLICE_MS / 2;

/**
 * The chosen rows written in the caller's transaction, a slice of rows at a time with the event
 * loop given back between slices (docs/security.md, "Files in and out"): 10,000 rows take
 * seconds to write, and written in one go they held every other request that long. Still one
 * transaction, all or nothing. It awaits a turn of the event loop inside the transaction, which
 * db/transaction.ts otherwise keeps to database work, and may: on SQLite every statement of
 * another request waits until the transaction has ended (db/client.ts untilNoTransaction) and
 * other transactions queue behind it; on PostgreSQL it has its own connection. Each slice's
 * questions take their revisions in the file's order (the counter is held until the commit).
 */
async function storeRows(tx: DB, actor: Principal, chosen: readonly Checked[], importId: string): Promise<string[]> {
  const ids: string[] = [];
  let size = FIRST_SLICE;
  for (let i = 0; i < chosen.length; ) {
    const part = chosen.slice(i, i + size);
    const started = performance.now();
    // The rows as POST /api/question stores each, written together (its statements prepared once).
    const rows = await createManyCheckedInTransaction(
      tx,
      actor,
      part.map((c) => c.value!),
    );
    const pending: Promise<unknown>[] = [];
    rows.forEach((row, j) => {
      const run = rememberImportRow(tx, { hash: part[j]!.hash!, questionId: row.id, importId });
      if (run instanceof Promise) pending.push(run);
      ids.push(row.id);
    });
    await Promise.all(pending);
    // The full-text index's terms of this slice written now, not all at the COMMIT (db/bulk-write.ts);
    // counted in the slice's time, which sizes the next slice.
    bulkSliceDone(tx);
    i += part.length;
    const took = Math.max(performance.now() - started, 0.1);
    size = Math.max(1, Math.min(size * 2, Math.floor((part.length * STORE_SLICE_MS) / took)));
    await nextTurn();
  }
  return ids;
}

/**
 * POST /api/question/import: stores the file's rows in ONE transaction, each as POST
 * /api/question stores one (version 1, PENDING, indexed; written together by
 * createManyCheckedInTransaction, in slices: storeRows), with the import and the hash of each
 * stored row. The import is ONE activity entry, with its counts and the file's SHA-256; its
 * questions are listed by question_import_row. mode 'all' stores nothing when any row has an
 * error; 'valid' leaves those rows out. With skipDuplicates, rows imported before (still live)
 * and repeats within the file are left out.
 */
export async function confirm(deps: Deps, actor: Principal, input: ImportConfirmInput): Promise<ImportResult> {
  const { preview: p, checked } = await analyse(deps.db, input, slicer());
  if (input.mode === 'all' && p.counts.invalid > 0) throw badRequest(MSG.importHasErrors);
  const isDuplicate = (c: Checked) => c.row.duplicateOf !== undefined || c.row.duplicateOfRow !== undefined;
  const chosen = checked.filter((c) => c.value && !(input.skipDuplicates && isDuplicate(c)));
  if (chosen.length === 0) throw badRequest(MSG.importNothingToStore);
  const skipped = checked.length - chosen.length;
  const { importId, ids } = await bulkTransaction(deps.db, async (tx) => {
    const imp = (await first(
      tx
        .insert(questionImport)
        .values({ fileName: input.fileName, fileHash: p.fileHash, format: input.format, personId: actor.id, rows: checked.length, stored: chosen.length })
        .returning({ id: questionImport.id }),
    ))!;
    const stored = await storeRows(tx, actor, chosen, imp.id);
    await logActivity(tx, {
      actor,
      action: 'CREATE',
      entity: 'question_import',
      entityId: imp.id,
      newValue: {
        fileName: input.fileName,
        format: input.format,
        fileHash: p.fileHash,
        mode: input.mode,
        rows: checked.length,
        stored: chosen.length,
        skipped,
        invalid: p.counts.invalid,
        duplicates: p.counts.duplicates,
      },
    });
    return { importId: imp.id, ids: stored };
  });
  return { success: true, msg: MSG.questionsImported, importId, stored: ids.length, skipped, ids };
}

/** The questions of an export, in the order asked (a set: main part, then sections in order). */
async function exportRows(db: Conn, query: { qids?: string[] | undefined; qsid?: string | undefined }): Promise<ExportQuestion[]> {
  let ids: string[];
  if (query.qsid) {
    const set = await first(db.select().from(questionSet).where(eq(questionSet.id, query.qsid)));
    if (!set || set.deleted) throw notFound(MSG.questionSetNotFound);
    ids = distinctSetQuestionIds(set);
  } else {
    ids = [...new Set(query.qids ?? [])];
  }
  const rows = new Map<string, typeof question.$inferSelect>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db.select().from(question).where(inArray(question.id, ids.slice(i, i + 500)))) rows.set(r.id, r);
  }
  const missing = query.qids?.find((id) => !rows.get(id) || rows.get(id)!.deleted);
  if (missing) throw badRequest(`${MSG.unknownQuestion} ${missing}`);
  const out = ids.flatMap((id) => {
    const r = rows.get(id);
    if (!r || r.deleted) return [];
    const trans = Object.fromEntries(Object.entries(r.trans).map(([lang, tr]) => [lang, { q: tr.q, ops: tr.ops, ca: tr.ca, ...(tr.expl && { expl: tr.expl }) }]));
    return [{ q: r.q, ops: r.ops, ca: r.ca, qt: r.qt as ExportQuestion['qt'], d: r.d, c: r.c, s: r.s, t: r.t, e: r.e, expl: r.expl, trans }];
  });
  if (out.length === 0) throw badRequest(MSG.exportNothing);
  return out;
}

const EXTENSIONS: Record<ImportFormat, string> = { csv: 'csv', gift: 'gift.txt', aiken: 'aiken.txt' };

/**
 * GET /api/question/export: the file's text, its name, and how many questions the format could
 * not hold (Aiken holds single choice only).
 */
export async function exportFile(deps: Deps, query: { format: ImportFormat; qids?: string[] | undefined; qsid?: string | undefined }) {
  const questions = await exportRows(deps.db, query);
  const day = new Date().toISOString().slice(0, 10);
  const fileName = `questions-${day}.${EXTENSIONS[query.format]}`;
  if (query.format === 'csv') return { text: serialiseCsv(questions), fileName, skipped: 0, type: 'text/csv' };
  if (query.format === 'gift') return { text: serialiseGift(questions), fileName, skipped: 0, type: 'text/plain' };
  const aiken = serialiseAiken(questions);
  if (!aiken.text) throw badRequest(MSG.exportNothing);
  return { text: aiken.text, fileName, skipped: aiken.skipped, type: 'text/plain' };
}
