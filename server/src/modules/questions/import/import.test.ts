import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { IMPORT_MAX_BYTES } from '@pm/protocol/question-import';
import { activityLog, question, questionImport, questionImportRow, questionSearch, questionTag, questionVersion, revisionCounter } from '#server/db/schema';
import { exec, first } from '#server/db/transaction';
import { type Harness, startHarness } from '#server/test/harness';
import { createManyCheckedInTransaction } from '../questions.service';

/*
 * docs/authoring.md "Import and export" through the HTTP app: preview writes nothing, a store is one transaction, the
 * duplicate detection, bad input, who may call, and export → import round trips in each format.
 */

let h: Harness;
let editor: string;
let learner: string;
beforeAll(async () => {
  h = await startHarness();
  [editor, learner] = await Promise.all([h.tokenOf('editor'), h.tokenOf('learner')]);
});
afterAll(() => h.destroy());

const counts = async (hh: Harness = h) => ({
  questions: (await hh.deps.db.select().from(question)).length,
  versions: (await hh.deps.db.select().from(questionVersion)).length,
  imports: (await hh.deps.db.select().from(questionImport)).length,
  importRows: (await hh.deps.db.select().from(questionImportRow)).length,
  log: (await hh.deps.db.select().from(activityLog)).length,
});

const preview = (body: Record<string, unknown>, token = editor, hh: Harness = h) => hh.request('POST', '/question/import/preview', { token, body });
const store = (body: Record<string, unknown>, token = editor, hh: Harness = h) => hh.request('POST', '/question/import', { token, body });

const GIFT_WITH_ONE_BROKEN = `// A quiz from Moodle
$CATEGORY: $course$/top/General Knowledge

::Rivers:: Which is the longest river of India? {=Ganga ~Yamuna ~Godavari}

::Primes:: Which are prime numbers? {~%50%2 ~%50%3 ~%-100%4}

::Match:: Match the capitals. {=India -> New Delhi =Nepal -> Kathmandu}

::Capital:: The capital of India is {=New Delhi =Delhi}.
`;

describe('preview', () => {
  test('every row with its errors; nothing is stored', async () => {
    const before = await counts();
    const r = await preview({ fileName: 'quiz.gift', format: 'gift', content: GIFT_WITH_ONE_BROKEN });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const p = r.body.data;
    expect(p.counts).toEqual({ rows: 4, valid: 3, invalid: 1, duplicates: 0 });
    expect(p.rows.map((row: { n: number; title: string; qt: string; errors: unknown[] }) => [row.n, row.title, row.qt, row.errors])).toEqual([
      [1, 'Rivers', 'mcq1', []],
      [2, 'Primes', 'mcq2', []],
      [3, 'Match', null, [{ code: 'unsupportedType', params: { type: 'matching' } }]],
      [4, 'Capital', 'f', []],
    ]);
    expect(p.rows[0].text).toBe('Which is the longest river of India?');
    expect(p.fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(p.importedBefore).toBeNull();
    expect(await counts()).toEqual(before);
  });

  test('tags: a CSV name must be a tag of its column, a GIFT category need not be one', async () => {
    const csv = 'type,question_en,a_en,b_en,answer,subject,class\nmcq1,Q one,x,y,a,General Knowledge,Class 10\nmcq1,Q two,x,y,a,gk,no such class\nmcq1,Q three,x,y,a,सामान्य ज्ञान,class-10;class-12';
    const r = await preview({ fileName: 't.csv', format: 'csv', content: csv });
    expect(r.body.data.rows.map((row: { errors: unknown[] }) => row.errors)).toEqual([[], [{ code: 'unknownTag', params: { group: 'c', name: 'no such class' } }], []]);
    const g = await preview({ fileName: 't.gift', format: 'gift', content: '$CATEGORY: Physics/Optics\n\n// [tag:class-10]\nQ {T}' });
    expect(g.body.data.rows[0].errors).toEqual([]);
    expect(g.body.data.rows[0].warnings).toEqual([
      { code: 'categoryNotTag', params: { name: 'Physics' } },
      { code: 'categoryNotTag', params: { name: 'Optics' } },
    ]);
  });

  test("the question's own rules are row errors too (blank after sanitising, mcq2 without a right answer)", async () => {
    const csv = 'type,question_en,a_en,b_en,answer\nmcq1,<script>alert(1)</script>,x,y,a\nmcq2,Q,x,y,';
    const r = await preview({ fileName: 'r.csv', format: 'csv', content: csv });
    expect(r.body.data.rows.map((row: { errors: { code: string }[] }) => row.errors.map((e) => e.code))).toEqual([['questionBlank'], ['correctAnswerMissing']]);
  });
});

describe('store', () => {
  test("mode 'all' with a broken row stores nothing", async () => {
    const before = await counts();
    const r = await store({ fileName: 'quiz.gift', format: 'gift', content: GIFT_WITH_ONE_BROKEN, mode: 'all', skipDuplicates: false });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, msg: MSG.importHasErrors });
    expect(await counts()).toEqual(before);
  });

  test("mode 'valid' stores the valid rows as new PENDING questions, versioned, indexed and logged, in one go", async () => {
    const before = await counts();
    const r = await store({ fileName: 'quiz.gift', format: 'gift', content: GIFT_WITH_ONE_BROKEN, mode: 'valid', skipDuplicates: true });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ success: true, msg: MSG.questionsImported, stored: 3, skipped: 1 });
    const ids = r.body.ids as string[];
    const rows = (await h.deps.db.select().from(question).where(inArray(question.id, ids))).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    expect(rows.map((q) => [q.qt, q.st, q.version, q.s])).toEqual([
      ['mcq1', 'PENDING', 1, 'gk'],
      ['mcq2', 'PENDING', 1, 'gk'],
      ['f', 'PENDING', 1, 'gk'],
    ]);
    expect(rows[2]!.q).toBe('<p>The capital of India is _____ .</p>');
    expect(rows[2]!.ca).toEqual(['New Delhi', 'Delhi']);
    expect(await counts()).toEqual({
      questions: before.questions + 3,
      versions: before.versions + 3,
      imports: before.imports + 1,
      importRows: before.importRows + 3,
      // One entry for the whole import, none per question (docs/security.md, "Files in and out").
      log: before.log + 1,
    });
    const imp = (await first(h.deps.db.select().from(questionImport).where(eq(questionImport.id, r.body.importId))))!;
    expect(imp).toMatchObject({ fileName: 'quiz.gift', format: 'gift', personId: 'demo-editor', rows: 4, stored: 3 });
    // The list finds them by text (the search index was written in the same transaction).
    const found = await h.request('GET', '/question?search=longest%20river', { token: editor });
    expect(found.body.data.map((q: { id: string }) => q.id)).toContain(ids[0]);
  });

  test('the same file again: detected, and its rows offered as duplicates to skip', async () => {
    const r = await preview({ fileName: 'quiz-again.gift', format: 'gift', content: GIFT_WITH_ONE_BROKEN });
    const p = r.body.data;
    expect(p.importedBefore).toMatchObject({ fileName: 'quiz.gift', stored: 3 });
    expect(typeof p.importedBefore.at).toBe('number');
    expect(p.counts.duplicates).toBe(3);
    expect(p.rows.map((row: { duplicateOf?: string }) => typeof row.duplicateOf)).toEqual(['string', 'string', 'undefined', 'string']);
    const before = await counts();
    const skip = await store({ fileName: 'quiz-again.gift', format: 'gift', content: GIFT_WITH_ONE_BROKEN, mode: 'valid', skipDuplicates: true });
    expect(skip.status).toBe(400);
    expect(skip.body.msg).toBe(MSG.importNothingToStore);
    expect(await counts()).toEqual(before);
    // A file with one new question among the old ones: only the new one is stored.
    const more = `${GIFT_WITH_ONE_BROKEN}\n\n::New:: Which planet is red? {=Mars ~Venus}\n`;
    const one = await store({ fileName: 'quiz-2.gift', format: 'gift', content: more, mode: 'valid', skipDuplicates: true });
    expect(one.body).toMatchObject({ stored: 1, skipped: 4 });
  });

  test('duplicates within one file are found too; without skipping they are stored', async () => {
    const csv = 'type,question_en,answer\nf,What is  the SUM of 2 and 3?,5\nf,what is the sum of 2 and 3?,5\n';
    const p = await preview({ fileName: 'd.csv', format: 'csv', content: csv });
    expect(p.body.data.rows.map((row: { duplicateOfRow?: number }) => row.duplicateOfRow)).toEqual([undefined, 1]);
    const r = await store({ fileName: 'd.csv', format: 'csv', content: csv, mode: 'all', skipDuplicates: false });
    expect(r.body).toMatchObject({ stored: 2, skipped: 0 });
  });

  test('one transaction: a failure while storing the third question leaves nothing stored', async () => {
    const csv = ['type,question_en,answer', ...[1, 2, 3, 4].map((i) => `f,Atomic question number ${i}?,${i}`)].join('\n');
    const before = await counts();
    const third = before.questions + 2;
    if (h.engine === 'sqlite') {
      await exec(h.deps.db, sql.raw(`CREATE TRIGGER import_fails_third BEFORE INSERT ON question WHEN (SELECT count(*) FROM question) >= ${third} BEGIN SELECT RAISE(ABORT, 'disk full'); END`));
    } else {
      await exec(
        h.deps.db,
        sql.raw(`CREATE FUNCTION import_fails_third() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF (SELECT count(*) FROM question) >= ${third} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`),
      );
      await exec(h.deps.db, sql.raw('CREATE TRIGGER import_fails_third BEFORE INSERT ON question FOR EACH ROW EXECUTE FUNCTION import_fails_third()'));
    }
    try {
      const r = await store({ fileName: 'atomic.csv', format: 'csv', content: csv, mode: 'valid', skipDuplicates: false });
      expect(r.status).toBe(500);
      expect(r.body.success).toBe(false);
    } finally {
      await exec(h.deps.db, sql.raw(h.engine === 'sqlite' ? 'DROP TRIGGER import_fails_third' : 'DROP TRIGGER import_fails_third ON question'));
      if (h.engine !== 'sqlite') await exec(h.deps.db, sql.raw('DROP FUNCTION import_fails_third()'));
    }
    expect(await counts()).toEqual(before);
    const again = await store({ fileName: 'atomic.csv', format: 'csv', content: csv, mode: 'valid', skipDuplicates: false });
    expect(again.body.stored).toBe(4);
  });
});

describe('an import stores each question as a one-by-one save (POST /api/question) stores it', () => {
  // Both languages, every type, tags of each group, a text that goes through the sanitiser.
  const csv = [
    'type,difficulty,question_en,question_hi,a_en,a_hi,b_en,b_hi,c_en,c_hi,answer,answer_hi,subject,class,topics,exams',
    'mcq1,2,Which gas do plants take in?,पौधे कौन सी गैस लेते हैं?,Oxygen,ऑक्सीजन,Carbon dioxide,कार्बन डाइऑक्साइड,,,b,,gk,class-10,,ssc-cgl',
    'mcq2,4,Which are prime?,,2,,9,,11,,"a,c",,arithmetic,class-10;class-12,,',
    'f,1,The capital of India is ____.,भारत की राजधानी ____ है।,,,,,,,New Delhi|Delhi,नई दिल्ली,gk,,,',
    's,5,"Explain <b>why</b> the sky is <i onclick=""x()"">blue</i>.",,,,,,,,Rayleigh scattering,,,,,',
  ].join('\n');
  const p = (t: string) => `<p>${t}</p>`;
  const bodies = [
    {
      q: p('Which gas do plants take in?'),
      ops: { a: p('Oxygen'), b: p('Carbon dioxide') },
      ca: ['b'],
      qt: 'mcq1',
      d: '2',
      s: 'gk',
      c: ['class-10'],
      e: ['ssc-cgl'],
      trans: { hi: { q: p('पौधे कौन सी गैस लेते हैं?'), ops: { a: p('ऑक्सीजन'), b: p('कार्बन डाइऑक्साइड') }, ca: ['b'] } },
    },
    { q: p('Which are prime?'), ops: { a: p('2'), b: p('9'), c: p('11') }, ca: ['a', 'c'], qt: 'mcq2', d: '4', s: 'arithmetic', c: ['class-10', 'class-12'] },
    { q: p('The capital of India is ____.'), ops: {}, ca: ['New Delhi', 'Delhi'], qt: 'f', d: '1', s: 'gk', trans: { hi: { q: p('भारत की राजधानी ____ है।'), ops: {}, ca: ['नई दिल्ली'] } } },
    { q: 'Explain <b>why</b> the sky is <i onclick="x()">blue</i>.', ops: {}, ca: ['Rayleigh scattering'], qt: 's', d: '5' },
  ];

  /**
   * Everything a save stores about each question, without what differs by nature (ids, times,
   * revisions) and the activity log (a save logs its question, an import itself: compared below).
   */
  async function stored(hh: Harness, ids: string[]) {
    const db = hh.deps.db;
    const out = [];
    for (const id of ids) {
      const { id: _id, createdAt: _createdAt, updatedAt, rev: _rev, ...row } = (await first(db.select().from(question).where(eq(question.id, id))))!;
      const versions = await db.select().from(questionVersion).where(eq(questionVersion.questionId, id));
      expect(versions.map((v) => v.createdAt)).toEqual([updatedAt]);
      out.push({
        row,
        tags: (await db.select({ tid: questionTag.tid }).from(questionTag).where(eq(questionTag.questionId, id))).map((t) => t.tid).sort(),
        search: await db.select({ body: questionSearch.body }).from(questionSearch).where(eq(questionSearch.questionId, id)),
        versions: versions.map(({ questionId: _q, createdAt: _c, ...v }) => v),
      });
    }
    return out;
  }
  const revsOf = async (hh: Harness, ids: string[]) => {
    const revs: number[] = [];
    for (const id of ids) revs.push((await first(hh.deps.db.select({ rev: question.rev }).from(question).where(eq(question.id, id))))!.rev);
    return revs;
  };
  const counter = async (hh: Harness) => (await first(hh.deps.db.select().from(revisionCounter)))!.value;

  test('the same rows in question, question_tag, question_search and question_version; each its own increasing revision; one activity entry', async () => {
    const [imported, saved] = await Promise.all([startHarness(), startHarness()]);
    try {
      const [importToken, saveToken] = await Promise.all([imported.tokenOf('editor'), saved.tokenOf('editor')]);
      const before = await counter(imported);
      const r = await store({ fileName: 'same.csv', format: 'csv', content: csv, mode: 'all', skipDuplicates: false }, importToken, imported);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const importedIds = r.body.ids as string[];
      const savedIds: string[] = [];
      for (const body of bodies) {
        const one = await saved.request('POST', '/question', { token: saveToken, body });
        expect(one.status, JSON.stringify(one.body)).toBe(201);
        savedIds.push(one.body.id);
      }
      const a = await stored(imported, importedIds);
      expect(a).toEqual(await stored(saved, savedIds));
      // What the comparison covers, spelt out for one question.
      expect(a[0]!.row).toMatchObject({ st: 'PENDING', version: 1, deleted: false, createdBy: 'demo-editor', s: 'gk' });
      expect(a[0]!.row.trans.hi!.src).toMatch(/^[0-9a-f]{14}$/);
      expect(a[0]!.tags).toEqual(['d:2', 'gk', 'class-10', 'qt:mcq1', 'ssc-cgl', 'st:PENDING', 'tr:hi'].sort());
      expect(a[0]!.search[0]!.body).toContain('कार्बन डाइऑक्साइड');
      expect(a[0]!.versions).toEqual([expect.objectContaining({ version: 1, action: 'CREATE', actorId: 'demo-editor' })]);
      expect(a[3]!.row.q).not.toContain('onclick');
      // One revision each, handed out in the file's order, none shared, the counter at the last one.
      const revs = await revsOf(imported, importedIds);
      expect(revs).toEqual(Array.from({ length: bodies.length }, (_, i) => before + 1 + i));
      expect(await counter(imported)).toBe(revs.at(-1));
      // The full-text index found them (its triggers ran for each search row).
      const found = await imported.request('GET', `/question?search=${encodeURIComponent('राजधानी')}`, { token: importToken });
      expect(found.body.data.map((q: { id: string }) => q.id)).toEqual([importedIds[2]]);
      // The import is one activity entry (its counts and the file's hash), its questions none.
      const log = await imported.deps.db.select().from(activityLog);
      expect(log.filter((e) => importedIds.includes(e.entityId))).toEqual([]);
      const last = log.sort((x, y) => x.createdAt - y.createdAt).at(-1)!;
      expect(last).toMatchObject({ entityAffected: 'question_import', entityId: r.body.importId, personId: 'demo-editor' });
      expect(last.newValue).toMatchObject({ fileName: 'same.csv', format: 'csv', rows: 4, stored: 4, skipped: 0, fileHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // A save logs its question.
      const savedLog = await saved.deps.db.select().from(activityLog);
      expect(savedIds.every((id) => savedLog.some((e) => e.entityId === id && e.entityAffected === 'question' && e.actionType === 'CREATE'))).toBe(true);
    } finally {
      imported.destroy();
      saved.destroy();
    }
  });

  test('the batch write refuses to run outside a transaction (its statements would each commit on their own)', async () => {
    await expect(createManyCheckedInTransaction(h.deps.db, { id: 'demo-editor', name: 'Editor', permissions: new Set(), sessionId: 's' }, [])).rejects.toThrow(/inside a transaction/);
  });
});

describe('bad input: 4xx with a message, nothing stored', () => {
  const cases: [string, () => Promise<{ status: number; body: { msg: string } }>, number, string | RegExp][] = [
    ['an unknown field', () => preview({ fileName: 'a.gift', format: 'gift', content: 'Q {T}', extra: 1 }), 400, 'Unknown field: extra'],
    ['an unknown format', () => preview({ fileName: 'a.xml', format: 'xml', content: '<quiz/>' }), 400, `format ${MSG.fieldNotAllowed}`],
    ['an unknown mode', () => store({ fileName: 'a.gift', format: 'gift', content: 'Q {T}', mode: 'some', skipDuplicates: false }), 400, `mode ${MSG.fieldNotAllowed}`],
    ['a confirm without skipDuplicates', () => store({ fileName: 'a.gift', format: 'gift', content: 'Q {T}', mode: 'all' }), 400, 'skipDuplicates is required'],
    ['an empty file', () => preview({ fileName: 'a.csv', format: 'csv', content: '\n\n' }), 400, MSG.importEmpty],
    ['a CSV sent as GIFT', () => preview({ fileName: 'a.gift', format: 'gift', content: 'type,question_en,answer\nf,Q,x' }), 400, MSG.importNotGift],
    ['GIFT sent as Aiken', () => preview({ fileName: 'a.txt', format: 'aiken', content: 'Q {=a ~b}' }), 400, MSG.importNotAiken],
    ['GIFT sent as CSV', () => preview({ fileName: 'a.csv', format: 'csv', content: '::T:: Q {=a ~b}' }), 400, /Unknown column in the file/],
    ['a binary file', () => preview({ fileName: 'a.xlsx', format: 'csv', content: 'PK\u0003\u0004\u0000\u0000' }), 400, MSG.importNotText],
  ];
  test.each(cases)('%s', async (_name, call, status, msg) => {
    const before = await counts();
    const r = await call();
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
    else expect(r.body.msg).toMatch(msg);
    expect(await counts()).toEqual(before);
  });

  test('a body over the limit is 413, declared or not', async () => {
    const before = await counts();
    const content = 'x'.repeat(IMPORT_MAX_BYTES);
    const r = await store({ fileName: 'big.csv', format: 'csv', content, mode: 'valid', skipDuplicates: false });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ success: false, msg: MSG.importTooLarge });
    expect(await counts()).toEqual(before);
  });

  test('a body between the API limit (1 MiB) and the import limit is taken', async () => {
    const row = `f,${'Long question text '.repeat(20)}?,x\n`;
    const content = `type,question_en,answer\n${row.repeat(Math.ceil((1.5 * 1024 * 1024) / row.length))}`;
    const r = await preview({ fileName: 'big.csv', format: 'csv', content });
    expect(r.status).toBe(200);
    expect(r.body.data.counts.rows).toBeGreaterThan(3000);
  });

  test('export: neither or both selections, an unknown question, a missing set', async () => {
    for (const url of ['/question/export?format=csv', '/question/export?format=csv&qids=a&qsid=b', '/question/export?format=pdf&qids=a', '/question/export?format=csv&qids=a&x=1']) {
      const r = await h.request('GET', url, { token: editor });
      expect(r.status, url).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await h.request('GET', '/question/export?format=csv&qids=no-such-question', { token: editor })).body.msg).toBe(`${MSG.unknownQuestion} no-such-question`);
    expect((await h.request('GET', '/question/export?format=gift&qsid=no-such-set', { token: editor })).status).toBe(404);
  });
});

describe('who may import and export', () => {
  const calls: [string, string, unknown][] = [
    ['POST', '/question/import/preview', { fileName: 'a.gift', format: 'gift', content: 'Q {T}' }],
    ['POST', '/question/import', { fileName: 'a.gift', format: 'gift', content: 'Q {T}', mode: 'valid', skipDuplicates: false }],
    ['GET', '/question/import/template.csv', undefined],
    ['GET', '/question/export?format=gift&qsid=x', undefined],
  ];
  test.each(calls)('%s %s: a learner 403, a guest 401, nothing stored', async (method, url, body) => {
    const before = await counts();
    const asLearner = await h.request(method, url, { token: learner, ...(body !== undefined && { body }) });
    expect(asLearner.status).toBe(403);
    expect(asLearner.body).toMatchObject({ success: false, msg: MSG.permissionDenied });
    const asGuest = await h.request(method, url, body !== undefined ? { body } : {});
    expect(asGuest.status).toBe(401);
    expect(asGuest.body).toMatchObject({ success: false, msg: MSG.loginRequired });
    expect(await counts()).toEqual(before);
  });

  test('the template is a CSV the import takes', async () => {
    const r = await h.request('GET', '/question/import/template.csv', { token: editor });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toContain('question-import-template.csv');
    const p = await preview({ fileName: 'template.csv', format: 'csv', content: r.body as string });
    expect(p.body.data.counts).toMatchObject({ rows: 5, valid: 5, invalid: 0 });
    expect(p.body.data.rows.map((r: { qt: string }) => r.qt)).toEqual(['mcq1', 'mcq2', 'f', 's', 'n']);
  });
});

describe('export → import into an empty bank keeps what the format holds', () => {
  let ids: string[];
  const bilingual = [
    {
      q: '<p>Which gas do plants take in for <strong>photo</strong>synthesis? 2 = 2: {yes} ~ #1</p>',
      ops: { a: '<p>Oxygen</p>', b: '<p>Carbon dioxide</p>', c: '<p>Nitrogen</p>', d: '<p>Helium</p>' },
      ca: ['b'],
      qt: 'mcq1',
      d: '2',
      s: 'gk',
      c: ['class-10'],
      t: [],
      e: ['ssc-cgl'],
      expl: '<p>Plants take in CO<sub>2</sub>: 6CO<sub>2</sub> + 6H<sub>2</sub>O → C<sub>6</sub>H<sub>12</sub>O<sub>6</sub> + 6O<sub>2</sub> {light}</p>',
      trans: {
        hi: {
          q: '<p>प्रकाश संश्लेषण के लिए पौधे कौन सी गैस लेते हैं?</p>',
          ops: { a: '<p>ऑक्सीजन</p>', b: '<p>कार्बन डाइऑक्साइड</p>', c: '<p>नाइट्रोजन</p>', d: '<p>हीलियम</p>' },
          ca: ['b'],
          expl: '<p>पौधे कार्बन डाइऑक्साइड लेते हैं और ऑक्सीजन छोड़ते हैं।</p>',
        },
      },
    },
    {
      q: '<p>Which are prime?</p>',
      ops: { a: '<p>2</p>', b: '<p>9</p>', c: '<p>11</p>' },
      ca: ['a', 'c'],
      qt: 'mcq2',
      d: '4',
      s: 'arithmetic',
      c: ['class-10', 'class-12'],
      t: [],
      e: [],
      trans: { hi: { q: '<p>कौन सी अभाज्य हैं?</p>', ops: { a: '<p>2</p>', b: '<p>9</p>', c: '<p>11</p>' }, ca: ['a', 'c'] } },
    },
    { q: '<p>The capital of India is ____.</p>', ops: {}, ca: ['New Delhi', 'Delhi'], qt: 'f', d: '1', s: 'gk', c: [], t: [], e: [], trans: { hi: { q: '<p>भारत की राजधानी ____ है।</p>', ops: {}, ca: ['नई दिल्ली'] } } },
    { q: '<p>Explain why the sky is blue.</p>', ops: {}, ca: ['Rayleigh scattering: blue light scatters more.'], qt: 's', d: '5', s: null, c: [], t: [], e: [], trans: {} },
    {
      q: '<p>A car covers 150 km in 2.5 hours. Its average speed in km/h is ____.</p>',
      ops: {},
      ca: ['60:0.5', '59..61', '-60'],
      qt: 'n',
      d: '3',
      s: 'arithmetic',
      c: [],
      t: [],
      e: [],
      expl: '<p>Speed = 150 ÷ 2.5 = 60 km/h.</p>',
      trans: { hi: { q: '<p>एक कार 2.5 घंटे में 150 किमी चलती है। उसकी औसत चाल ____ किमी/घंटा है।</p>', ops: {}, ca: ['60:0.5', '59..61', '-60'], expl: '<p>चाल = 150 ÷ 2.5 = 60 किमी/घंटा।</p>' } },
    },
  ];

  beforeAll(async () => {
    ids = [];
    for (const q of bilingual) {
      const r = await h.request('POST', '/question', { token: editor, body: q });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.id);
    }
  });

  type Stored = typeof question.$inferSelect;
  const content = (q: Stored) => ({ q: q.q, ops: q.ops, ca: q.ca, qt: q.qt, expl: q.expl });
  const tags = (q: Stored) => ({ s: q.s, c: q.c, t: q.t, e: q.e });
  const hindi = (q: Stored) => Object.fromEntries(Object.entries(q.trans).map(([l, tr]) => [l, { q: tr.q, ops: tr.ops, ca: tr.ca, expl: tr.expl }]));

  async function roundTrip(format: 'csv' | 'gift' | 'aiken') {
    const exported = await h.request('GET', `/question/export?format=${format}&qids=${ids.join(',')}`, { token: editor });
    expect(exported.status).toBe(200);
    const target = await startHarness();
    try {
      // An empty bank: the demo questions are gone.
      await target.deps.db.update(question).set({ deleted: true });
      const token = await target.tokenOf('editor');
      const r = await store({ fileName: `export.${format}`, format, content: exported.body as string, mode: 'all', skipDuplicates: false }, token, target);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const imported = await target.deps.db.select().from(question).where(inArray(question.id, r.body.ids));
      const byId = new Map(imported.map((q) => [q.id, q]));
      return {
        skipped: exported.headers.get('x-export-skipped'),
        imported: (r.body.ids as string[]).map((id) => byId.get(id)!),
        originals: (await h.deps.db.select().from(question).where(inArray(question.id, ids))).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)),
      };
    } finally {
      target.destroy();
    }
  }

  test('CSV: everything (texts, options, answers, type, difficulty, tags, Hindi, explanations, numerical answers)', async () => {
    const { imported, originals } = await roundTrip('csv');
    expect(originals[0]!.expl).toContain('CO<sub>2</sub>');
    expect(originals[4]!.trans.hi?.expl).toBe('<p>चाल = 150 ÷ 2.5 = 60 किमी/घंटा।</p>');
    expect(imported.map(content)).toEqual(originals.map(content));
    expect(imported.map(tags)).toEqual(originals.map(tags));
    expect(imported.map((q) => q.d)).toEqual(['2', '4', '1', '5', '3']);
    expect(imported.map(hindi)).toEqual(originals.map(hindi));
    expect(imported.every((q) => q.st === 'PENDING')).toBe(true);
  });

  test('GIFT: texts, options, answers, type, tags and the English explanation (no Hindi, no difficulty in GIFT)', async () => {
    const { imported, originals } = await roundTrip('gift');
    expect(imported[4]).toMatchObject({ qt: 'n', ca: ['60:0.5', '59..61', '-60'], expl: '<p>Speed = 150 ÷ 2.5 = 60 km/h.</p>' });
    expect(imported.map(content)).toEqual(originals.map(content));
    expect(imported.map(tags)).toEqual(originals.map(tags));
  });

  test('Aiken: the single-choice question as text; the other types are left out and counted', async () => {
    const { imported, skipped } = await roundTrip('aiken');
    expect(skipped).toBe('4');
    expect(imported).toHaveLength(1);
    expect(content(imported[0]!)).toEqual({
      q: '<p>Which gas do plants take in for photosynthesis? 2 = 2: {yes} ~ #1</p>',
      ops: { a: '<p>Oxygen</p>', b: '<p>Carbon dioxide</p>', c: '<p>Nitrogen</p>', d: '<p>Helium</p>' },
      ca: ['b'],
      qt: 'mcq1',
      expl: '',
    });
  });

  test('a set exports its questions', async () => {
    const set = await h.request('PATCH', '/question/updateQuestionSet', {
      token: editor,
      body: { l: 'Export set', mpq: 1, tm: 10, nm: 0, dur: 10, isM: false, inst: '', q: ids.slice(0, 2), sections: {}, pts: Math.floor(Date.now() / 60_000) + 600, draft: true },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    const r = await h.request('GET', `/question/export?format=gift&qsid=${set.body.id}`, { token: editor });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(/attachment; filename="questions-\d{4}-\d{2}-\d{2}\.gift\.txt"/);
    // Two answer blocks, and an escaped brace in the first question's text and in its explanation.
    expect((r.body as string).match(/\{/g)?.length).toBe(2 + 2);
  });
});
