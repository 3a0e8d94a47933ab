import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, loginOnPhone, replicaText } from './helpers';

/**
 * Explanations (docs/exams.md "Explanations"), as people would at 360 px: the demo editor writes a
 * numerical question in the editor with an explanation in English and in Hindi and approves it;
 * it goes into a published mock test; the demo learner reads the test in Hindi, where no
 * explanation is to be seen (a mock test's reach the device only with the result), submits, and
 * the result page shows the Hindi explanation under the question, and the English one in English.
 */

const stamp = Date.now().toString(36);
const WORD = `velocitron${stamp}`;
const EXPLAIN_EN = `Speed is distance over time ${stamp}`;
const EXPLAIN_HI = `चाल बराबर दूरी भाग समय ${stamp}`;

async function editorAuth(request: APIRequestContext) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

/** Nothing wider than the screen. */
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('an editor writes an explanation in English and Hindi; the learner sees it after submitting, in Hindi', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const editorContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await editorContext.newPage();
  await loginOnPhone(page, 'editor');

  await page.goto('/question-editor');
  await page.getByRole('combobox', { name: 'Question type' }).click();
  await page.getByRole('option', { name: 'Numerical' }).click();
  const question = page.getByRole('textbox', { name: 'Question', exact: true });
  await question.click();
  await page.keyboard.type(`A ${WORD} covers 150 km in 2.5 hours. Its speed in km/h is?`);
  const accepted = page.getByRole('combobox', { name: 'Correct numerical answer' });
  await accepted.fill('60:0.5');
  await accepted.press('Enter');
  const explanation = page.getByRole('textbox', { name: 'Explanation (solution)' });
  await explanation.click();
  await page.keyboard.type(EXPLAIN_EN);
  await expect(explanation).toContainText(EXPLAIN_EN);

  // The Hindi translation: the question and its explanation.
  await page.getByRole('radiogroup', { name: 'Language' }).getByText('हिन्दी').click();
  await question.click();
  await page.keyboard.type(`एक ${WORD} 2.5 घंटे में 150 किमी चलता है। उसकी चाल किमी/घंटा में?`);
  await explanation.click();
  await page.keyboard.type(EXPLAIN_HI);
  await expect(explanation).toContainText(EXPLAIN_HI);
  expect(await fitsTheScreen(page)).toBe(true);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Question created successfully').first()).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/question-editor\?id=/);
  const qid = new URL(page.url()).searchParams.get('id')!;
  await page.getByRole('button', { name: 'Mark reviewed' }).click();
  await expect(page.getByText('Question status updated successfully').first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('group', { name: 'Review' }).getByRole('button', { name: 'Back to pending' })).toBeVisible({ timeout: 15_000 });
  await editorContext.close();

  // Stored as written, in both languages.
  const auth = await editorAuth(request);
  const stored = await (await request.get(`/api/question/${qid}`, { headers: auth })).json();
  expect(stored.data).toMatchObject({ qt: 'n', ca: ['60:0.5'] });
  expect(stored.data.expl).toContain(EXPLAIN_EN);
  expect(stored.data.trans.hi.expl).toContain(EXPLAIN_HI);

  const set = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: `Explained mock ${stamp}`, mpq: 4, tm: 8, nm: 1, dur: 20, isM: true, free: true, inst: '<p>Two questions.</p>', q: [qid, 'q-gk-001'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(set.ok(), await set.text()).toBe(true);
  const { id: qsid } = (await set.json()) as { id: string };

  const learnerContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const learner = await learnerContext.newPage();
  await loginOnPhone(learner, 'learner');
  await learner.goto('/exam-list');
  const card = learner.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  // Before the submission the device holds no explanation of the mock test.
  const held = await replicaText(learner, 'qs_detail');
  expect(held).toContain(qsid);
  expect(held).toContain(WORD);
  expect(held).not.toContain(EXPLAIN_EN);
  expect(held).not.toContain(EXPLAIN_HI);

  await card.getByRole('link', { name: 'Take Test' }).click();
  await learner.getByRole('button', { name: 'Start Test' }).click();
  await learner.getByRole('radiogroup', { name: 'Question language' }).getByText('हिन्दी').click();
  const panel = learner.getByRole('tabpanel');
  await expect(panel).toContainText(`एक ${WORD}`);
  const answer = panel.getByRole('textbox', { name: 'Your answer' });
  await expect(answer).toHaveAttribute('inputmode', 'decimal');
  await answer.fill('६०.२');
  await expect(panel).not.toContainText(EXPLAIN_HI);
  await learner.getByRole('button', { name: 'Save & Next' }).click();
  await expect(learner.getByTestId('question-number')).toHaveText('Question 2');
  await panel.getByRole('radio').nth(1).check();
  await learner.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
  await learner.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(learner).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));

  // Scored by the server: 60.2 is within 60 ± 0.5 (+4), 1757 is right (+4).
  await expect(learner.getByTestId('total-marks')).toHaveText('8 out of 8', { timeout: 30_000 });
  const outcome = learner.getByTestId(`outcome-${qid}`);
  await expect(outcome.getByTestId('verdict')).toHaveText('Correct');
  await expect(outcome.getByTestId('your-answer')).toHaveText('60.2');
  await expect(outcome.getByTestId('correct-answer')).toHaveText('60 ± 0.5 (59.5 to 60.5)');
  const shown = outcome.getByTestId('explanation');
  await expect(shown).toContainText(EXPLAIN_HI);
  await expect(shown.getByTestId('explanation-english')).toHaveCount(0);
  // A question without an explanation shows none.
  await expect(learner.getByTestId('outcome-q-gk-001').getByTestId('explanation')).toHaveCount(0);
  expect(await fitsTheScreen(learner)).toBe(true);

  await learner.getByRole('radiogroup', { name: 'Question language' }).getByText('English').click();
  await expect(shown).toContainText(EXPLAIN_EN);
  await expect(shown).not.toContainText(EXPLAIN_HI);
  await learnerContext.close();
});
