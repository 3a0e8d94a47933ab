import { eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { question, questionSet, revisionCounter, tag } from '../../db/schema';
import { first } from '../../db/transaction';
import { type Harness, startHarness } from '../../test/harness';

type TagView = { key: string; tid: string; tags: Record<string, string>; uat: number };

let h: Harness;
let editor: string;

beforeAll(async () => {
  h = await startHarness();
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());

const patch = (body: unknown, token = editor) => h.request('PATCH', '/tag', { token, body });
const revOf = async (tid: string) => (await first(h.deps.db.select({ rev: tag.rev }).from(tag).where(eq(tag.tid, tid))))?.rev ?? -1;
/** The highest revision handed out so far, over every replicated table. */
async function highestRev(): Promise<number> {
  const db = h.deps.db;
  return Math.max(
    (await first(db.select({ m: max(tag.rev) }).from(tag)))?.m ?? 0,
    (await first(db.select({ m: max(question.rev) }).from(question)))?.m ?? 0,
    (await first(db.select({ m: max(questionSet.rev) }).from(questionSet)))?.m ?? 0,
  );
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET /tag', () => {
  test('?key=s answers the seeded subjects with English and Hindi names', async () => {
    const r = await h.request('GET', '/tag?key=s');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const data = r.body.data as TagView[];
    expect(data.map((t) => t.tid).sort()).toEqual(['arithmetic', 'gk', 'hindi', 'reasoning']);
    for (const t of data) {
      expect(t.key).toBe('s');
      expect(t.tags.en).toEqual(expect.any(String));
      expect(t.tags.hi).toEqual(expect.any(String));
    }
    expect(data.find((t) => t.tid === 'gk')?.tags).toEqual({ en: 'General Knowledge', hi: 'सामान्य ज्ञान' });
  });

  test('without a key answers every group', async () => {
    const r = await h.request('GET', '/tag');
    expect(r.status).toBe(200);
    const keys = new Set((r.body.data as TagView[]).map((t) => t.key));
    expect(keys).toEqual(new Set(['c', 's', 't', 'e']));
  });

  test('an unknown key or parameter is 400', async () => {
    expect((await h.request('GET', '/tag?key=z')).status).toBe(400);
    expect((await h.request('GET', '/tag?key=s&extra=1')).status).toBe(400);
  });

  test('no token is fine, a valid token is fine, a bad token is 401', async () => {
    expect((await h.request('GET', '/tag?key=s')).status).toBe(200);
    const learner = await h.tokenOf('learner');
    expect((await h.request('GET', '/tag?key=s', { token: learner })).status).toBe(200);
    const bad = await h.request('GET', '/tag?key=s', { token: 'not.a.token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ success: false, msg: 'Session expired. Please login again.' });
    const badRecent = await h.request('GET', '/tag/getRecentlyUpdatedTags', { token: 'not.a.token' });
    expect(badRecent.status).toBe(401);
  });
});

describe('PATCH /tag', () => {
  let tid = '';

  test('creates a tag with a revision above every earlier one', async () => {
    const before = await highestRev();
    const r = await patch({ key: 't', newTag: 'Trigonometry', lang: 'en' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, msg: 'Tag created successfully' });
    expect(r.body.data).toMatchObject({ key: 't', tid: 'trigonometry', tags: { en: 'Trigonometry' } });
    tid = r.body.data.tid;
    expect(await revOf(tid)).toBeGreaterThan(before);
    expect(await revOf(tid)).toBe(await highestRev());
    const counter = await first(h.deps.db.select().from(revisionCounter));
    expect(counter?.value).toBe(await revOf(tid));

    const listed = await h.request('GET', '/tag?key=t');
    expect((listed.body.data as TagView[]).find((t) => t.tid === tid)?.tags).toEqual({ en: 'Trigonometry' });
  });

  test('with tagId adds the name in the other language, with a newer revision', async () => {
    const before = await revOf(tid);
    const r = await patch({ key: 't', tagId: tid, newTag: 'त्रिकोणमिति', lang: 'hi' });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe('Tag created successfully');
    expect(r.body.data).toMatchObject({ tid, tags: { en: 'Trigonometry', hi: 'त्रिकोणमिति' } });
    expect(await revOf(tid)).toBeGreaterThan(before);
    const listed = await h.request('GET', '/tag?key=t');
    expect((listed.body.data as TagView[]).find((t) => t.tid === tid)?.tags).toEqual({ en: 'Trigonometry', hi: 'त्रिकोणमिति' });
  });

  test('a second tag with the same name gets its own id', async () => {
    const r = await patch({ key: 't', newTag: 'Trigonometry', lang: 'en' });
    expect(r.status).toBe(200);
    expect(r.body.data.tid).not.toBe(tid);
    expect(r.body.data.tid).toMatch(/^trigonometry-[0-9a-f]+$/);
  });

  test('a name without Latin letters still gets an id', async () => {
    const r = await patch({ key: 's', newTag: 'भूगोल विषय', lang: 'hi' });
    expect(r.status).toBe(200);
    expect(r.body.data.tid).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(r.body.data.tags).toEqual({ hi: 'भूगोल विषय' });
  });

  test('a missing key is "Key missing. Cannot add tag without key"', async () => {
    for (const body of [{ newTag: 'X', lang: 'en' }, { key: '', newTag: 'X', lang: 'en' }, { key: 'q', newTag: 'X', lang: 'en' }]) {
      const r = await patch(body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'Key missing. Cannot add tag without key' });
    }
  });

  test('a missing name or language is "Language and name are mandatory"', async () => {
    for (const body of [{ key: 't', lang: 'en' }, { key: 't', newTag: '   ', lang: 'en' }, { key: 't', newTag: 'X' }, { key: 't', newTag: 'X', lang: '' }]) {
      const r = await patch(body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, msg: 'Language and name are mandatory' });
    }
  });

  test('an unknown tagId, or one of another group, is "Please select existing tag"', async () => {
    const unknown = await patch({ key: 't', tagId: 'no-such-tag', newTag: 'X', lang: 'hi' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('Please select existing tag');
    const otherGroup = await patch({ key: 's', tagId: 'geography', newTag: 'X', lang: 'hi' });
    expect(otherGroup.status).toBe(400);
    expect(otherGroup.body.msg).toBe('Please select existing tag');
  });

  test('refused patches change no tag and burn no revision', async () => {
    const counter = (await first(h.deps.db.select().from(revisionCounter)))?.value;
    const rows = (await h.deps.db.select().from(tag)).length;
    await patch({ key: 't', lang: 'en' });
    await patch({ key: 't', tagId: 'no-such-tag', newTag: 'X', lang: 'hi' });
    expect((await first(h.deps.db.select().from(revisionCounter)))?.value).toBe(counter);
    expect((await h.deps.db.select().from(tag)).length).toBe(rows);
  });

  test('only QUESTION_EDITOR holders may write; anonymous is 401', async () => {
    const learner = await h.tokenOf('learner');
    const denied = await patch({ key: 't', newTag: 'Sneaky', lang: 'en' }, learner);
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe('Permission denied');
    const anon = await h.request('PATCH', '/tag', { body: { key: 't', newTag: 'Sneaky', lang: 'en' } });
    expect(anon.status).toBe(401);
    const admin = await h.tokenOf('admin');
    expect((await patch({ key: 'e', newTag: 'Bank Clerk', lang: 'en' }, admin)).status).toBe(200);
  });
});

describe('GET /tag/getRecentlyUpdatedTags', () => {
  test('answers only changes after lastTimestamp, and the new lastTimestamp', async () => {
    const everything = await h.request('GET', '/tag/getRecentlyUpdatedTags');
    expect(everything.status).toBe(200);
    expect(everything.body.success).toBe(true);
    const all = everything.body.tags as TagView[];
    expect(all.length).toBe((await h.deps.db.select().from(tag)).length);
    const since = everything.body.lastTimestamp as number;
    expect(since).toBe(Math.max(...all.map((t) => t.uat)));

    const nothing = await h.request('GET', `/tag/getRecentlyUpdatedTags?lastTimestamp=${since}`);
    expect(nothing.body).toEqual({ success: true, tags: [], lastTimestamp: since });

    await pause(2);
    const created = await patch({ key: 'c', newTag: 'Class 8', lang: 'en' });
    const renamed = await patch({ key: 'c', tagId: 'class-10', newTag: 'दसवीं कक्षा', lang: 'hi' });
    expect(created.status).toBe(200);
    expect(renamed.status).toBe(200);

    const later = await h.request('GET', `/tag/getRecentlyUpdatedTags?lastTimestamp=${since}`);
    expect(later.status).toBe(200);
    const tids = (later.body.tags as TagView[]).map((t) => t.tid).sort();
    expect(tids).toEqual([created.body.data.tid, 'class-10'].sort());
    expect((later.body.tags as TagView[]).find((t) => t.tid === 'class-10')?.tags).toEqual({ en: 'Class 10', hi: 'दसवीं कक्षा' });
    expect(later.body.lastTimestamp).toBeGreaterThan(since);
    expect(later.body.lastTimestamp).toBe(Math.max(...(later.body.tags as TagView[]).map((t) => t.uat)));

    const caughtUp = await h.request('GET', `/tag/getRecentlyUpdatedTags?lastTimestamp=${later.body.lastTimestamp}`);
    expect(caughtUp.body).toEqual({ success: true, tags: [], lastTimestamp: later.body.lastTimestamp });
  });

  test('a change is never hidden behind a lastTimestamp already handed out (same millisecond or clock step back)', async () => {
    // A tag stamped ahead of the server clock (e.g. written before the clock was stepped back).
    const ahead = Date.now() + 60_000;
    await h.deps.db.update(tag).set({ uat: ahead }).where(eq(tag.tid, 'graduate'));
    const r1 = await h.request('GET', '/tag/getRecentlyUpdatedTags?lastTimestamp=0');
    expect(r1.body.lastTimestamp).toBe(ahead);

    const changed = await patch({ key: 'c', tagId: 'class-12', newTag: 'बारहवीं कक्षा', lang: 'hi' });
    expect(changed.status).toBe(200);
    const r2 = await h.request('GET', `/tag/getRecentlyUpdatedTags?lastTimestamp=${r1.body.lastTimestamp}`);
    expect((r2.body.tags as TagView[]).map((t) => t.tid)).toEqual(['class-12']);
    expect(r2.body.lastTimestamp).toBeGreaterThan(ahead);
  });

  test('a bad lastTimestamp is 400', async () => {
    expect((await h.request('GET', '/tag/getRecentlyUpdatedTags?lastTimestamp=abc')).status).toBe(400);
    expect((await h.request('GET', '/tag/getRecentlyUpdatedTags?lastTimestamp=-1')).status).toBe(400);
  });
});
