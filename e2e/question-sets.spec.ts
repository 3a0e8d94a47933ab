import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, loginOnPhone } from './helpers';

/**
 * Question sets as a new user meets them on a phone (360 × 740): an editor's save keeps a
 * published set published, Unpublish asks first, a set whose totals were left at 0 shows the
 * marks its questions give, and a learner using Hindi reads a demo set's title, section names and
 * instructions in Hindi (docs/authoring.md, docs/exams.md).
 */

test.use({ viewport: { width: 360, height: 740 } });

const stamp = Date.now().toString(36);
const minuteNow = () => Math.floor(Date.now() / 60_000);

async function tokenOf(request: APIRequestContext, who: keyof typeof DEMO) {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO[who].username}:${DEMO[who].password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  return { authorization: `Bearer ${(await login.json()).token as string}` };
}

/** A published set free for everyone: mpq 2, two sections of two questions, every total left at 0. */
async function publishedSet(request: APIRequestContext, label: string): Promise<string> {
  const created = await request.patch('/api/question/updateQuestionSet', {
    headers: await tokenOf(request, 'editor'),
    data: {
      l: label,
      mpq: 2,
      tm: 0,
      nm: 0.5,
      dur: 30,
      isM: false,
      free: true,
      inst: '<p>Two sections.</p>',
      q: [],
      sections: {
        'General Knowledge': { q: ['q-gk-001', 'q-gk-003'], mpq: 2, tm: 0, nm: 0.5, o: 1 },
        Arithmetic: { q: ['q-arithmetic-001', 'q-arithmetic-003'], mpq: 2, tm: 0, nm: 0.5, o: 2 },
      },
      pts: minuteNow() - 1,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).id as string;
}

/** Signs in through the login page; at 360 px Logout sits in the drawer, so the sync status says it is done. */
async function loginAs(page: Page, who: keyof typeof DEMO) {
  await loginOnPhone(page, who);
  await expect(page.getByRole('button', { name: /^Sync status/ })).toBeVisible();
}

/** What the learner's API lists (the published sets). */
async function learnerSees(request: APIRequestContext, id: string): Promise<boolean> {
  const r = await request.get('/api/question/getQuestionSetList', { headers: await tokenOf(request, 'learner') });
  return ((await r.json()).data as { id: string }[]).some((s) => s.id === id);
}

const fact = (page: Page, card: ReturnType<Page['getByTestId']>, label: string) => card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

test('an editor saves a published set: it stays published and the learner still has it', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const label = `Kept live ${stamp}`;
  const id = await publishedSet(request, label);
  await loginAs(page, 'editor');
  await page.goto(`/question-set/${id}`);
  const title = page.getByRole('textbox', { name: 'Label' });
  await expect(title).toHaveValue(label);
  // No "Save draft" on a published set: it would have withdrawn it.
  await expect(page.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
  await title.fill(`${label} (edited)`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Question set updated successfully').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Published', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  expect(await learnerSees(request, id)).toBe(true);

  const learnerContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const learner = await learnerContext.newPage();
  await loginAs(learner, 'learner');
  await learner.goto('/exam-list');
  await expect(learner.getByTestId(`exam-card-${id}`).getByRole('heading', { name: `${label} (edited)` })).toBeVisible({ timeout: 30_000 });
  await learnerContext.close();
});

test('Unpublish asks for confirmation; cancelled, the set stays; confirmed, learners no longer see it', async ({ page, request }) => {
  test.setTimeout(90_000);
  const id = await publishedSet(request, `To unpublish ${stamp}`);
  await loginAs(page, 'editor');
  await page.goto(`/question-set/${id}`);
  await page.getByRole('button', { name: 'Unpublish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unpublish this question set?' });
  await expect(dialog).toContainText('learners no longer see it');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await learnerSees(request, id)).toBe(true);

  await page.getByRole('button', { name: 'Unpublish' }).click();
  await page.getByRole('dialog', { name: 'Unpublish this question set?' }).getByRole('button', { name: 'Unpublish' }).click();
  await expect(page.getByText('Question set unpublished: learners no longer see it').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
  await expect.poll(() => learnerSees(request, id)).toBe(false);
});

test('a set with its totals left at 0: the exam card and the intro show the marks its questions give', async ({ page, request }) => {
  test.setTimeout(90_000);
  const label = `Zero totals ${stamp}`;
  const id = await publishedSet(request, label);
  await loginAs(page, 'learner');
  await page.goto('/exam-list');
  const card = page.getByTestId(`exam-card-${id}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  // 2 sections × 2 questions × 2 marks.
  await expect(fact(page, card, 'Total marks')).toHaveText('8');
  await card.getByRole('link', { name: 'Take Test' }).click();
  await expect(page.getByRole('heading', { name: label })).toBeVisible();
  await expect(page.getByText('Total marks: 8')).toBeVisible();
  await expect(page.getByRole('row', { name: /General Knowledge 2 2 0\.5 4/ })).toBeVisible({ timeout: 30_000 });
});

test('a learner using Hindi reads a demo set in Hindi: title, section names and instructions, on the card, the intro and the test', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'learner');
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.goto('/exam-list');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  const card = page.getByTestId('exam-card-qs-mock-ssc-1');
  await expect(card.getByRole('heading', { name: 'एसएससी मॉक टेस्ट 1 (सामान्य ज्ञान, मात्रात्मक योग्यता और तर्कशक्ति)' })).toBeVisible({ timeout: 30_000 });
  await expect(fact(page, card, 'कुल अंक')).toHaveText(/^(48|४८)$/);
  await card.getByRole('link', { name: 'टेस्ट दें' }).click();

  await expect(page.getByRole('heading', { name: /एसएससी मॉक टेस्ट 1/ })).toBeVisible();
  for (const section of ['सामान्य ज्ञान', 'मात्रात्मक योग्यता', 'तर्कशक्ति']) await expect(page.getByRole('cell', { name: section, exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('सामान्य निर्देश')).toBeVisible();
  await expect(page.getByText('General Instructions')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'General Knowledge' })).toHaveCount(0);

  await page.getByRole('button', { name: 'टेस्ट शुरू करें' }).click();
  const HINDI_TITLE = 'एसएससी मॉक टेस्ट 1 (सामान्य ज्ञान, मात्रात्मक योग्यता और तर्कशक्ति)';
  const test_ = page.getByRole('dialog', { name: HINDI_TITLE });
  // The test's header (its title is cut with an ellipsis at 360 px, the text is whole).
  await expect(test_.getByRole('banner')).toContainText(HINDI_TITLE);
  await expect(test_.getByRole('tab', { name: /^सामान्य ज्ञान/ })).toBeVisible();
  await expect(test_.getByRole('tab', { name: /^तर्कशक्ति/ })).toBeVisible();
  await expect(test_.getByRole('tab', { name: /General Knowledge/ })).toHaveCount(0);
});
