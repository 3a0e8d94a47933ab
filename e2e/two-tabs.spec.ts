import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, openAppDb } from './helpers';

/**
 * docs/exams.md "Two tabs, storage and eviction": the same attempt open in two tabs of one browser. One tab owns it (Web Locks);
 * the other says so, in both languages' strings, and offers "Take over here"; taking over makes
 * the first tab read-only with the same offer; closing the owner hands the test back by itself.
 * Whatever was answered in either tab arrives on the server once, the later answer to a
 * question winning.
 */

const questionNumber = (page: Page) => page.getByTestId('question-number');
const options = (page: Page) => page.getByRole('tabpanel');
const notice = (page: Page) => page.getByTestId('attempt-lock-notice');
const palette = (page: Page, n: number) => page.getByRole('button', { name: new RegExp(`^Question ${n},`) });
const QIDS = ['q-gk-001', 'q-gk-002', 'q-gk-003', 'q-gk-004'];

async function createSet(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: `Two tabs ${Date.now().toString(36)}`, mpq: 1, tm: 4, nm: 0, dur: 30, isM: true, inst: '<p>Two tabs.</p>', q: QIDS, sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { id: string }).id;
}

async function pick(page: Page, index: number) {
  await options(page).getByRole('radio').nth(index).check();
}

test('two tabs on one attempt: one owns it, the other takes over, closing the owner hands it back, every answer arrives once', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const qsid = await createSet(request);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(`exam-card-${qsid}`).getByTestId('availability')).toHaveText(/On this device/, { timeout: 20_000 });

  // Tab 1 starts the test and answers Q1 (a) and Q2 (b).
  await page.goto(`/take-exam/${qsid}`);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await expect(questionNumber(page)).toHaveText('Question 1');
  await pick(page, 0);
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await pick(page, 1);
  await expect(palette(page, 2)).toHaveAccessibleName('Question 2, Answered');
  await expect(notice(page)).toHaveCount(0);

  // Tab 2 opens the same attempt: read-only, says so, offers to take over.
  const second = await context.newPage();
  await second.goto(`/take-exam/${qsid}`);
  await second.getByRole('button', { name: 'Resume Test' }).click();
  await expect(notice(second)).toContainText('This test is open in another tab');
  await expect(notice(second)).toContainText('read-only');
  await expect(second.locator('[data-readonly]')).toHaveCount(1);

  // Tab 2 takes over (tab 1's last answer, still only in its journal, is handed over first).
  await notice(second).getByRole('button', { name: 'Take over here' }).click();
  await expect(notice(second)).toHaveCount(0);
  await expect(notice(page)).toContainText('This test is open in another tab');
  await expect(page.locator('[data-readonly]')).toHaveCount(1);
  await expect(questionNumber(second)).toHaveText('Question 2');
  await expect(options(second).getByRole('radio').nth(1)).toBeChecked();
  await expect(palette(second, 1)).toHaveAccessibleName('Question 1, Answered');

  // Tab 2 changes Q2 to d (the later answer must win) and answers Q3 (c).
  await pick(second, 3);
  await second.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(second)).toHaveText('Question 3');
  await pick(second, 2);
  await expect(palette(second, 3)).toHaveAccessibleName('Question 3, Answered');

  // Tab 2 closes at once (no unload handler runs): the browser releases its lock and tab 1 owns
  // the test again by itself, with tab 2's answers, which were only in the journal.
  await second.close({ runBeforeUnload: false });
  await expect(notice(page)).toHaveCount(0, { timeout: 15_000 });
  await expect(questionNumber(page)).toHaveText('Question 3');
  await expect(options(page).getByRole('radio').nth(2)).toBeChecked();
  await expect(palette(page, 2)).toHaveAccessibleName('Question 2, Answered');

  // A reload of the owner: everything is still there; Q4 (b), then submit.
  await page.reload();
  await expect(questionNumber(page)).toHaveText('Question 3', { timeout: 20_000 });
  await expect(options(page).getByRole('radio').nth(2)).toBeChecked();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 4');
  await pick(page, 1);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));

  // On the server: one attempt, one result, every answer once, the later answer to Q2.
  await expect
    .poll(
      () => {
        const db = openAppDb();
        try {
          return (db.prepare('select count(*) as n from exam_result where qsid = ?').get(qsid) as { n: number }).n;
        } finally {
          db.close();
        }
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  const db = openAppDb();
  try {
    const rows = db.prepare('select answers, status from attempt where qsid = ?').all(qsid) as { answers: string; status: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('SUBMITTED');
    const answers = JSON.parse(rows[0]!.answers) as Record<string, { ua: unknown; status: string }>;
    expect(Object.fromEntries(QIDS.map((q) => [q, answers[q]?.ua]))).toEqual({ 'q-gk-001': 'a', 'q-gk-002': 'd', 'q-gk-003': 'c', 'q-gk-004': 'b' });
    expect(QIDS.map((q) => answers[q]?.status)).toEqual(['ANSWERED', 'ANSWERED', 'ANSWERED', 'ANSWERED']);
  } finally {
    db.close();
  }
});

test('the tab that lost the test takes it back with one click', async ({ page, context, request }) => {
  test.setTimeout(90_000);
  const qsid = await createSet(request);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  await expect(page.getByTestId(`exam-card-${qsid}`).getByTestId('availability')).toHaveText(/On this device/, { timeout: 20_000 });
  await page.goto(`/take-exam/${qsid}`);
  await page.getByRole('button', { name: 'Start Test' }).click();
  await pick(page, 2);

  const second = await context.newPage();
  await second.goto(`/take-exam/${qsid}`);
  await second.getByRole('button', { name: 'Resume Test' }).click();
  await notice(second).getByRole('button', { name: 'Take over here' }).click();
  await expect(notice(page)).toBeVisible();
  await expect(options(second).getByRole('radio').nth(2)).toBeChecked();
  await pick(second, 3);
  await expect(palette(second, 1)).toHaveAccessibleName('Question 1, Answered');

  // Back to tab 1: one click, and it shows tab 2's answer.
  await notice(page).getByRole('button', { name: 'Take over here' }).click();
  await expect(notice(page)).toHaveCount(0);
  await expect(notice(second)).toBeVisible();
  await expect(options(page).getByRole('radio').nth(3)).toBeChecked();
  // The read-only tab cannot change it.
  await expect(second.locator('[data-readonly]')).toHaveCount(1);
});
