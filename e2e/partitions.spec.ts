import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { type FaultProxy, type FaultRates, NO_FAULTS, startFaultProxy } from '../scripts/fault-proxy';
import { DEMO, loginAs, openAppDb, waitForServiceWorker } from './helpers';

// This spec needs the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/*
 * Random partitions (docs/offline-integrity.md "The network"). The browser reaches the app only through our fault proxy
 * (scripts/fault-proxy.ts), which gives every connection a fate from a seeded PRNG: black-holed,
 * delayed 0–10 s, reset (before the server sees the request, or after it answered), half-open
 * (the request arrives, the answer never comes back), or passed and cut after up to 8 s. A
 * learner takes a whole 50-question mock test through it, reloading every ten questions, and
 * submits; the server then holds every answer once, with the value given, and one scored result.
 *
 * Three seeds, one test each, on one device (signed in and its service worker installed once,
 * with the network healthy). Each test downloads its own set with the faults off, then turns
 * them on, starting the proxy's PRNG from the seed. FAULT_SEEDS=1,2,3 (or FAULT_SEED=n) replays
 * a run; the seed and the fates drawn are printed. Which request meets which fate also depends
 * on the browser's timing, so a replay is close to the run, not a copy of it.
 */

const SEEDS = (process.env.FAULT_SEEDS ?? process.env.FAULT_SEED ?? '2101,7919,424242').split(',').map((s) => Number(s.trim()) >>> 0);

/**
 * The faults while the learner takes the test: a connection in five fails one way or another.
 * Delays go up to 4 s in `npm test` (three seeds must fit CI's time); FAULT_DELAY_MAX_MS=10000
 * runs them with the proxy's full 0–10 s.
 */
const RATES: FaultRates = { drop: 0.05, reset: 0.1, halfOpen: 0.05, delayMaxMs: Number(process.env.FAULT_DELAY_MAX_MS ?? 4_000), lifeMaxMs: 8_000 };

type Question = { id: string; keys: string[]; multiple: boolean };

/** 50 questions of the seeded bank with options (single and multiple choice), in id order. */
function fiftyChoiceQuestions(): Question[] {
  const db = openAppDb();
  try {
    const rows = db.prepare("select id, qt, ops from question where qt in ('mcq1', 'mcq2') and id like 'q-%' order by id limit 50").all() as { id: string; qt: string; ops: string }[];
    return rows.map((r) => ({ id: r.id, keys: Object.keys(JSON.parse(r.ops) as object).sort(), multiple: r.qt === 'mcq2' }));
  } finally {
    db.close();
  }
}

/** An editor publishes a free 50-question mock test (scored on the server) through the API, directly. */
async function publishFiftyQuestionMock(request: APIRequestContext, origin: string, seed: number) {
  const login = await request.post(`${origin}/api/UserLogin/login`, {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const questions = fiftyChoiceQuestions();
  expect(questions).toHaveLength(50);
  const created = await request.patch(`${origin}/api/question/updateQuestionSet`, {
    headers: auth,
    data: { l: `Partition drill ${seed}`, mpq: 1, tm: 50, nm: 0, dur: 60, isM: true, free: true, inst: '<p>Fifty questions.</p>', q: questions.map((q) => q.id), sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return { qsid: ((await created.json()) as { id: string }).id, questions };
}

/** The answer the learner gives to question n (1-based) under a seed: one key, or two of a multiple choice. */
function answerFor(q: Question, n: number, seed: number): string | string[] {
  const i = (seed + n * 7) % q.keys.length;
  return q.multiple ? [q.keys[i]!, q.keys[(i + 1) % q.keys.length]!].sort() : q.keys[i]!;
}

function sameAnswer(stored: unknown, given: string | string[]) {
  return Array.isArray(given) ? Array.isArray(stored) && [...(stored as string[])].sort().join() === given.join() : stored === given;
}

const questionNumber = (page: Page) => page.getByTestId('question-number');

test.describe.configure({ mode: 'serial' });

let proxy: FaultProxy;
let context: BrowserContext;
let page: Page;
let origin: string;

test.beforeAll(async ({ browser }, info) => {
  test.setTimeout(90_000);
  const target = new URL(info.project.use.baseURL!);
  origin = target.origin;
  proxy = await startFaultProxy({ target: { host: target.hostname, port: Number(target.port) }, seed: SEEDS[0]!, rates: NO_FAULTS });
  context = await browser.newContext({ baseURL: proxy.url });
  page = await context.newPage();
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await waitForServiceWorker(page);
});

test.afterAll(async () => {
  await context?.close();
  await proxy?.close();
});

for (const seed of SEEDS) {
  test(`seed ${seed}: a 50-question test through random partitions, with reloads, stores every answer once and one result`, async ({ request }) => {
    test.setTimeout(240_000);
    proxy.setRates(NO_FAULTS);
    const { qsid, questions } = await publishFiftyQuestionMock(request, origin, seed);
    await page.goto('/exam-list');
    const card = page.getByTestId(`exam-card-${qsid}`);
    await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });

    // From here every connection meets the faults, the pooled ones included.
    proxy.setRates(RATES);
    proxy.reseed(seed);
    proxy.cutAll();
    const faultsOn = Date.now();
    console.log(`partitions: FAULT_SEED=${seed}, rates ${JSON.stringify(RATES)}`);
    await card.getByRole('link', { name: 'Take Test' }).click();
    await page.getByRole('button', { name: 'Start Test' }).click();

    const given = new Map<string, string | string[]>();
    for (let n = 1; n <= 50; n++) {
      const q = questions[n - 1]!;
      const ua = answerFor(q, n, seed);
      await expect(questionNumber(page)).toHaveText(`Question ${n}`);
      const panel = page.getByRole('tabpanel');
      for (const key of Array.isArray(ua) ? ua : [ua]) await panel.locator(`input[value="${key}"]`).check();
      given.set(q.id, ua);
      if (n < 50) await page.getByRole('button', { name: 'Save & Next' }).click();
      // A reload every ten questions: the test resumes at the next question.
      if (n % 10 === 5) {
        // Once the screen shows the next question, the move is stored (the test screen shows only
        // what IndexedDB holds: db/attempts/attempt-journal.ts); a reload in the same millisecond as
        // the tap would race the write itself, which no device promises to keep.
        await expect(questionNumber(page)).toHaveText(`Question ${n + 1}`);
        await page.reload();
        await expect(questionNumber(page)).toHaveText(`Question ${n + 1}`, { timeout: 30_000 });
      }
    }
    await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
    await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));
    const submitted = Date.now();

    // The submission crosses the faulty network, is scored, and the result comes back. The wait
    // allows for the designed recoveries meeting bad fates in a row: a stream that hears nothing
    // is reopened after 40 s of silence, a request without progress given up after 20 s
    // (client/src/db/sync/stall-guard.ts); two silent streams and a stalled pull come to about 100 s.
    await expect(page.getByTestId('total-marks')).toHaveText(/ out of 50$/, { timeout: 130_000 });
    const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`partitions: seed ${seed}: test taken in ${secs(submitted - faultsOn)}, result back ${secs(Date.now() - submitted)} after submit; connections by fate ${JSON.stringify(proxy.counts)}, answers lost after the server answered ${proxy.lostAnswers()}`);

    // On the server: one attempt holding every answer with its value, one scored result.
    const db = openAppDb();
    try {
      const attempts = db.prepare("select id, status, answers from attempt where qsid = ? and person_id = 'demo-learner'").all(qsid) as { id: string; status: string; answers: string }[];
      expect(attempts).toHaveLength(1);
      expect(attempts[0]!.status).toBe('SUBMITTED');
      const stored = JSON.parse(attempts[0]!.answers) as Record<string, { ua: unknown; status: string }>;
      expect(Object.keys(stored).sort()).toEqual([...given.keys()].sort());
      for (const [id, ua] of given) {
        expect(stored[id]?.status, id).toBe('ANSWERED');
        expect(sameAnswer(stored[id]?.ua, ua), `${id}: stored ${JSON.stringify(stored[id]?.ua)}, given ${JSON.stringify(ua)}`).toBe(true);
      }
      const results = db.prepare('select attempt_id as attemptId, user_res as userRes from exam_result where qsid = ?').all(qsid) as { attemptId: string; userRes: string }[];
      expect(results).toHaveLength(1);
      expect(results[0]!.attemptId).toBe(attempts[0]!.id);
      const scored = Object.assign({}, ...Object.values(JSON.parse(results[0]!.userRes) as Record<string, Record<string, { ua: unknown }>>)) as Record<string, { ua: unknown }>;
      expect(Object.keys(scored)).toHaveLength(50);
      for (const [id, ua] of given) expect(sameAnswer(scored[id]?.ua, ua), id).toBe(true);
    } finally {
      db.close();
    }
  });
}
