import { PerformanceObserver } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IMPORT_MAX_ROWS } from '@pm/protocol/question-import';
import { activityLog, question, questionImport } from '../../server/src/db/schema';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Files in and out", the import: 10,000 rows wrote 10,063 activity entries and
 * held the event loop for up to a second, so that /api/health waited. Now an import is ONE
 * activity entry (its counts and the file's hash), and its work is cut into slices that each give
 * the event loop back (server/src/modules/questions/import/import.service.ts; docs/security.md).
 */

let h: Harness;
let editor: string;
beforeAll(async () => {
  // SQLite checkpointed on a worker thread, as the server runs it (index.ts).
  h = await startHarness({ backgroundCheckpoints: true });
  editor = await h.tokenOf('editor');
});
afterAll(() => h.destroy());

/** A bilingual CSV of `n` distinct valid rows of the four types, tagged as the template is. */
function bigCsv(n: number): string {
  const head = 'type,difficulty,question_en,question_hi,a_en,a_hi,b_en,b_hi,c_en,c_hi,d_en,d_hi,answer,answer_hi,subject,class,topics,exams';
  const rows = Array.from({ length: n }, (_, i) => {
    switch (i % 4) {
      case 0:
        return `mcq1,2,Which gas do plants take in? (${i}),पौधे कौन सी गैस लेते हैं? (${i}),Oxygen,ऑक्सीजन,Carbon dioxide,कार्बन डाइऑक्साइड,Nitrogen,नाइट्रोजन,Helium,हीलियम,b,,gk,class-10,,`;
      case 1:
        return `mcq2,3,Which of these are prime? (${i}),इनमें से कौन अभाज्य हैं? (${i}),2,2,9,9,11,11,15,15,"a,c",,arithmetic,class-10,,`;
      case 2:
        return `f,1,The capital of India is ____ (${i}).,भारत की राजधानी ____ है (${i})।,,,,,,,,,New Delhi|Delhi,नई दिल्ली|दिल्ली,gk,,,`;
      default:
        return `s,4,"Explain why the sky looks blue (${i}).",समझाइए कि आकाश नीला क्यों दिखता है (${i})।,,,,,,,,,Rayleigh scattering.,वायु नीले प्रकाश को अधिक बिखेरती है।,gk,class-12,,`;
    }
  });
  return [head, ...rows].join('\n');
}

/**
 * Runs `work` while asking GET /api/health again 1 ms after each answer, as a client polling it
 * would. The time from one answer to the next (the 1 ms wait included) is how long the event loop
 * was held, on a machine of its own. This machine's cores are shared with other test runs, which
 * stretch any stretch of work on the clock; so a wait counts as the smaller of its clock time and
 * the CPU time the process spent in it (what the work itself took). Garbage-collection pauses
 * inside a wait are taken out of it: they belong to the whole test worker's heap (files share one
 * module graph), not to the import's slicing, and a major collection of that heap alone can
 * take tens of milliseconds on a loaded machine.
 */
async function healthWhile<T>(work: () => Promise<T>): Promise<{ value: T; longest: number; longestClock: number; gc: number; checks: number }> {
  let done = false;
  let longest = 0;
  let longestClock = 0;
  let gcInLongest = 0;
  let checks = 0;
  const pauses: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const gcWithin = (from: number, to: number) => pauses.reduce((sum, p) => sum + Math.max(0, Math.min(to, p.end) - Math.max(from, p.start)), 0);
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, 1));
      const r = await h.app.request('/api/health');
      await r.arrayBuffer();
      const end = performance.now();
      const clock = end - t;
      const used = process.cpuUsage(cpu);
      // The observer is told of a pause after it: give it the turn it needs before counting.
      await new Promise((resolve) => setImmediate(resolve));
      const gc = gcWithin(t, end);
      const held = Math.max(0, Math.min(clock, (used.user + used.system) / 1000) - gc);
      if (held > longest) {
        longest = held;
        gcInLongest = gc;
      }
      longestClock = Math.max(longestClock, clock);
      checks++;
    }
  })();
  try {
    const value = await work();
    done = true;
    await probe;
    return { value, longest, longestClock, gc: gcInLongest, checks };
  } finally {
    done = true;
    observer.disconnect();
  }
}

describe('a 10,000-row import', () => {
  const content = bigCsv(IMPORT_MAX_ROWS);

  test('is one activity entry with its counts and the file hash, and gives the event loop back all through', async () => {
    const before = (await h.deps.db.select().from(activityLog)).length;
    const questionsBefore = (await h.deps.db.select({ id: question.id }).from(question)).length;
    // Warm up: the statements prepared, the modules loaded (a first request's one-time costs).
    const warm = await h.request('POST', '/question/import', { token: editor, body: { fileName: 'warm.csv', format: 'csv', content: bigCsv(4), mode: 'all', skipDuplicates: false } });
    expect(warm.status, JSON.stringify(warm.body)).toBe(201);
    const afterWarm = (await h.deps.db.select().from(activityLog)).length;
    expect(afterWarm - before).toBe(1);

    // The request's JSON is made before the clock starts: the client's work is not the server's.
    const rawBody = JSON.stringify({ fileName: 'big.csv', format: 'csv', content, mode: 'all', skipDuplicates: false });
    const began = performance.now();
    const { value: r, longest, longestClock, gc, checks } = await healthWhile(() => h.request('POST', '/question/import', { token: editor, rawBody }));
    const importMs = performance.now() - began;
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(201);
    expect(r.body.stored).toBe(IMPORT_MAX_ROWS);
    expect((await h.deps.db.select({ id: question.id }).from(question)).length).toBe(questionsBefore + 4 + IMPORT_MAX_ROWS);

    // One entry for the whole import, naming the file by its hash, with its counts.
    const entries = await h.deps.db.select().from(activityLog);
    expect(entries.length - afterWarm).toBe(1);
    const entry = entries.find((e) => e.entityAffected === 'question_import' && e.entityId === r.body.importId)!;
    expect(entry).toMatchObject({ actionType: 'CREATE', personId: 'demo-editor' });
    expect(entry.newValue).toMatchObject({
      fileName: 'big.csv',
      format: 'csv',
      fileHash: createHash('sha256').update(content).digest('hex'),
      rows: IMPORT_MAX_ROWS,
      stored: IMPORT_MAX_ROWS,
      skipped: 0,
    });
    const imp = (await h.deps.db.select().from(questionImport).where(eq(questionImport.id, r.body.importId)))[0]!;
    expect(imp).toMatchObject({ rows: IMPORT_MAX_ROWS, stored: IMPORT_MAX_ROWS });

    // The health checks went on through the import: it is cut into slices, so that no wait is more
    // than a twentieth of the import (done in one piece, one wait would be all of it). A ratio of
    // this run's own import, so a loaded machine stretches both sides; the absolute figure (the
    // 50 ms target) is measured by `npm run bench:authoring` beside an idle floor (docs/benchmarks.md).
    expect(checks).toBeGreaterThan(20);
    expect(
      longest,
      `longest wait for /api/health during the ${importMs.toFixed(0)} ms import: ${longest.toFixed(1)} ms (clock: ${longestClock.toFixed(1)} ms, garbage collection left out of it: ${gc.toFixed(1)} ms) over ${checks} checks`,
    ).toBeLessThan(importMs / 20);
  }, 180_000);
});
