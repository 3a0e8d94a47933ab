import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, pngBytes } from './helpers';

/**
 * The result page (docs/exams.md "Answers and marking"), as a learner would: the demo editor publishes a mock test whose questions carry an
 * image and a formula in every option (in English and Hindi) plus a subjective question; the demo
 * learner takes it reading Hindi, submits, and the result page shows every option with its image
 * and formula, in Hindi, the chosen and the correct options marked in words, the subjective answer
 * awaiting evaluation, and a printable view with every question and no navigation.
 */

const stamp = Date.now().toString(36);
const SET_LABEL = `Figures result ${stamp}`;

async function editorToken(request: APIRequestContext) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.editor.username}:${DEMO.editor.password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

const formula = (latex: string) => `<span data-type="inline-math" data-latex="${latex}"></span>`;

/** An approved mcq1 question whose every option has an image and a formula, in English and Hindi. */
async function createQuestion(request: APIRequestContext, auth: Record<string, string>, n: number, image: string) {
  const option = (word: string, latex: string) => `<p><img src="${image}" alt="figure ${word}"> ${word} ${formula(latex)}</p>`;
  const created = await request.post('/api/question', {
    headers: auth,
    data: {
      q: `<p>Result check ${stamp} question ${n}: which value is ${formula(`\\frac{${n * 2}}{2}`)}?</p>`,
      ops: { a: option('alpha', `${n}+1`), b: option('beta', `${n}`), c: option('gamma', `${n}-1`) },
      ca: ['b'],
      qt: 'mcq1',
      st: 'REVIEWED',
      trans: {
        hi: {
          q: `<p>परिणाम जाँच ${stamp} प्रश्न ${n}: ${formula(`\\frac{${n * 2}}{2}`)} का मान क्या है?</p>`,
          ops: { a: option('अल्फ़ा', `${n}+1`), b: option('बीटा', `${n}`), c: option('गामा', `${n}-1`) },
          ca: ['b'],
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const approved = await request.patch('/api/question/updateStatus', { headers: auth, data: { id, st: 'APPROVED' } });
  expect(approved.ok(), await approved.text()).toBe(true);
  return id;
}

const questionNumber = (page: Page) => page.getByTestId('question-number');

test('the result shows every option with its image and formula, in Hindi, the chosen and correct marks, and prints', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const auth = await editorToken(request);
  const upload = await request.post('/api/media', { headers: { ...auth, 'content-type': 'image/png' }, data: pngBytes([30, 90, 200]) });
  expect(upload.status()).toBe(201);
  const image = ((await upload.json()) as { url: string }).url;
  const q1 = await createQuestion(request, auth, 1, image);
  const q2 = await createQuestion(request, auth, 2, image);
  const set = await request.patch('/api/question/updateQuestionSet', {
    headers: auth,
    data: { l: SET_LABEL, mpq: 2, tm: 6, nm: 0.5, dur: 30, isM: true, free: true, inst: '<p>Figures.</p>', q: [q1, q2, 'q-gk-017'], sections: {}, pts: Math.floor(Date.now() / 60_000) - 1 },
  });
  expect(set.ok(), await set.text()).toBe(true);
  const { id: qsid } = (await set.json()) as { id: string };

  const context = await browser.newContext();
  const page = await context.newPage();
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${qsid}`);
  await expect(card.getByTestId('availability')).toHaveText('On this device', { timeout: 30_000 });
  await card.getByRole('link', { name: 'Take Test' }).click();
  await page.getByRole('button', { name: 'Start Test' }).click();

  // The learner reads the test in Hindi: Q1 wrong (a), Q2 right (b), Q3 a subjective answer.
  await page.getByRole('radiogroup', { name: 'Question language' }).getByText('हिन्दी').click();
  const options = page.getByRole('tabpanel');
  await expect(options).toContainText(`परिणाम जाँच ${stamp} प्रश्न 1`);
  await options.getByRole('radio').nth(0).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 2');
  await options.getByRole('radio').nth(1).check();
  await page.getByRole('button', { name: 'Save & Next' }).click();
  await expect(questionNumber(page)).toHaveText('Question 3');
  await options.getByRole('textbox').fill('Plants make glucose from sunlight, water and carbon dioxide.');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Exam summary' }).getByRole('button', { name: 'Submit test' }).click();
  await expect(page).toHaveURL(new RegExp(`/exam-result/${qsid}/true$`));

  // Scored by the server (a mock test's answers come with its result): 2 of 6, one pending.
  await expect(page.getByTestId('total-marks')).toHaveText('1.5 out of 6', { timeout: 30_000 });
  await expect(page.getByText('1 answer awaiting evaluation')).toBeVisible();

  // Every option, in Hindi (the attempt's language), with its image loaded and its formula drawn.
  for (const qid of [q1, q2]) {
    const outcome = page.getByTestId(`outcome-${qid}`);
    await expect(outcome).toContainText(`परिणाम जाँच ${stamp}`);
    await expect(outcome.getByRole('listitem')).toHaveCount(3);
    for (const [key, word] of [
      ['a', 'अल्फ़ा'],
      ['b', 'बीटा'],
      ['c', 'गामा'],
    ] as const) {
      const option = outcome.getByTestId(`option-${key}`);
      await expect(option).toContainText(word);
      await expect(option.locator('.katex')).toBeVisible();
      const img = option.getByRole('img', { name: `figure ${word}` });
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(8);
    }
  }
  const first = page.getByTestId(`outcome-${q1}`);
  await expect(first.getByTestId('verdict')).toHaveText('Incorrect');
  await expect(first.getByTestId('option-a').getByTestId('chosen-mark')).toHaveText('Your answer');
  await expect(first.getByTestId('option-a').getByTestId('correct-mark')).toHaveCount(0);
  await expect(first.getByTestId('option-b').getByTestId('correct-mark')).toHaveText('Correct answer');
  await expect(first.getByTestId('option-c')).not.toContainText('answer');
  await expect(first.getByTestId('marks-gained')).toHaveText('Marks: -0.5');
  const second = page.getByTestId(`outcome-${q2}`);
  await expect(second.getByTestId('verdict')).toHaveText('Correct');
  await expect(second.getByTestId('option-b')).toContainText(/Your answer\s*Correct answer/);
  const subjective = page.getByTestId('outcome-q-gk-017');
  await expect(subjective.getByTestId('verdict')).toHaveText('Awaiting evaluation');
  await expect(subjective.getByTestId('pending-note')).toBeVisible();

  // The learner may read the result in English instead.
  await page.getByRole('radiogroup', { name: 'Question language' }).getByText('English').click();
  await expect(first).toContainText(`Result check ${stamp} question 1`);
  await expect(first.getByTestId('option-b')).toContainText('beta');

  // The printable view: Print prints; printed, every question shows (even of a collapsed part)
  // and the navigation, the footer and the page's buttons do not.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void ((window as unknown as { printed: number }).printed += 1);
  });
  await page.getByRole('button', { name: 'Print' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.getByRole('button', { name: /^Main/ }).click();
  await expect(first).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  for (const qid of [q1, q2, 'q-gk-017']) await expect(page.getByTestId(`outcome-${qid}`)).toBeVisible();
  await expect(first.getByTestId('option-b').locator('.katex')).toBeVisible();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await context.close();
});
