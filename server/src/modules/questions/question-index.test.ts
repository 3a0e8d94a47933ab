import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { question, questionSearch, questionTag } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';
import { indexMissingQuestions, normaliseText, plainText, searchBody } from './question-index';

describe('the search text of rich text', () => {
  test.each([
    ['markup goes, inline formatting joins, blocks separate', '<p>H<sub>2</sub>O is <b>wa</b>ter</p><p>next</p>', 'h2o is water next'],
    ['entities are decoded', '<p>Tom &amp; Jerry&nbsp;&lt;3 &quot;x&quot;</p>', 'tom & jerry <3 "x"'],
    ['a formula counts as its LaTeX, not its rendering', '<p>Find <span data-type="inline-math" data-latex="\\frac{a}{b}"><span class="katex">ab</span></span>.</p>', 'find \\frac{a}{b} .'],
    ['a block formula too', '<div data-type="block-math" data-latex="x^2"><span class="katex-display">x2</span></div>', 'x^2'],
    ['an image counts as its alt text', '<p>See <img src="/media/a.png" alt="a map">here</p>', 'see a map here'],
    ['scripts and styles are no text', '<p>a<script>alert(1)</script><style>p{}</style>b</p>', 'a b'],
    ['unclosed markup ends', '<p>open <b>bold', 'open bold'],
  ])('%s', (_n, html, text) => {
    expect(normaliseText(plainText(html))).toBe(text);
  });

  test('normalised: lower case, one Unicode form, single spaces', () => {
    expect(normaliseText('  Photo\u00a0\tSYNTHESIS\n')).toBe('photo synthesis');
    // क़ (U+0915 U+093C) and U+0958 are the same letter; NFC makes them one form.
    expect(normaliseText('\u0915\u093c')).toBe(normaliseText('\u0958'));
  });

  test('a plain paragraph (read without the parser) reads exactly as the parser reads it', () => {
    // A comment is no text, but the paragraph with one is no plain paragraph: the parser reads it.
    const parsed = (html: string) => plainText(`${html}<!---->`);
    const texts = ['<p></p>', '<p>a<br />b</p>', '<p>x &amp;lt; y &gt; z &lt; &amp;</p>', '<p> two  spaces\tand\r\nbreaks\u00a0</p>', '<p>हिंदी<br /><br />पाठ;&amp;amp;</p>', '<p>\u0000 ; # = " \' / 😀</p>'];
    for (const html of texts) expect(plainText(html), html).toBe(parsed(html));
    expect(plainText('<p>Tom &amp; Jerry<br />&lt;3</p>')).toBe(' Tom & Jerry  <3 ');
    // Not plain: other entities and markup go through the parser.
    expect(normaliseText(plainText('<p>a&nbsp;b &quot;c&quot;</p>'))).toBe('a b "c"');
    expect(normaliseText(plainText('<p>a<br>b</p>'))).toBe('a b');
  });

  test('normalised text folds every kind and run of spaces, and leaves single spaces', () => {
    for (const [text, out] of [
      ['one two', 'one two'],
      [' one two ', 'one two'],
      ['one  two', 'one two'],
      ['one\ttwo', 'one two'],
      ['one\u00a0two', 'one two'],
      ['one \u2003two\n', 'one two'],
      ['', ''],
    ]) {
      expect(normaliseText(text!), JSON.stringify(text)).toBe(out);
    }
  });

  test('the body holds question, options and textual answers in every language; option keys of MCQ answers do not count', () => {
    const mcq = searchBody({ q: '<p>Capital?</p>', ops: { a: '<p>Delhi</p>', b: 'Mumbai' }, ca: ['a'], qt: 'mcq1', trans: { hi: { q: '<p>राजधानी?</p>', ops: { a: 'दिल्ली', b: 'मुंबई' }, ca: ['a'] } } });
    expect(mcq).toBe('capital? delhi mumbai राजधानी? दिल्ली मुंबई');
    const fill = searchBody({ q: '<p>River of Bengaluru</p>', ops: {}, ca: ['Kaveri'], qt: 'f', trans: { hi: { q: 'नदी', ops: {}, ca: ['कावेरी'] } } });
    expect(fill).toBe('river of bengaluru kaveri नदी कावेरी');
  });
});

describe('indexing at start', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    // The module's own start-up indexing is over before the tests change the index under it.
    await h.repaired;
  });
  afterAll(() => h.destroy());

  test('the seed indexes every fixture question: tags, facets and search text', async () => {
    const live = await h.deps.db.select({ id: question.id }).from(question);
    expect(await h.deps.db.select().from(questionSearch)).toHaveLength(live.length);
    const tags = (await h.deps.db.select().from(questionTag).where(eq(questionTag.questionId, 'q-gk-001'))).map((t) => t.tid);
    expect(tags).toEqual(expect.arrayContaining(['gk', 'qt:mcq1', 'st:APPROVED']));
    expect(tags.some((t) => t.startsWith('d:'))).toBe(true);
  });

  test('questions without search text are indexed with their markup stripped; deleted ones leave the index; nothing to do is a no-op', async () => {
    await h.deps.db.delete(questionSearch);
    await h.deps.db.update(question).set({ deleted: true }).where(eq(question.id, 'q-gk-002'));
    const indexed = await indexMissingQuestions(h.deps.db);
    const live = await h.deps.db.select({ id: question.id }).from(question).where(eq(question.deleted, false));
    expect(indexed).toBe(live.length);
    const body = (await first(h.deps.db.select().from(questionSearch).where(eq(questionSearch.questionId, 'q-gk-001'))))!.body;
    expect(body).not.toMatch(/<|>/);
    expect(body).toBe(body.toLowerCase());
    expect(await first(h.deps.db.select().from(questionSearch).where(eq(questionSearch.questionId, 'q-gk-002')))).toBeUndefined();
    expect(await h.deps.db.select().from(questionTag).where(eq(questionTag.questionId, 'q-gk-002'))).toEqual([]);
    expect(await indexMissingQuestions(h.deps.db)).toBe(0);
  });
});
