import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import type { ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import { renderWithApp } from '@/testing/render';
import { attemptAt, detailOf, monthlyPlan, openFixture, questionSet } from './allowance.fixture';
import ExamListPage from './exam-list-page';

let open: ReplicaDatabase | null = null;
afterEach(async () => {
  await open?.remove();
  open = null;
});

const sets = [
  questionSet('mock-1', 'Weekly mock 1', { isM: true, pts: 3 }),
  questionSet('prac-1', 'Algebra practice', { pts: 2 }),
  questionSet('free-1', 'Sample mock', { isM: true, free: true, pts: 1 }),
];

async function renderList(docs: Parameters<typeof openFixture>[0], lang = 'en') {
  const { db, replica } = await openFixture(docs);
  open = db;
  await renderWithApp(
    <ReplicaContext.Provider value={replica}>
      <ExamListPage />
    </ReplicaContext.Provider>,
    { route: '/exam-list', lang, namespaces: ['exam'] },
  );
  // The list waits for the storage check (at most 1 s) before it is drawn.
  await screen.findByTestId('allowance-summary', {}, { timeout: 5000 });
  await screen.findByTestId('exam-card-mock-1', {}, { timeout: 5000 });
  return db;
}

const card = (id: string) => screen.getByTestId(`exam-card-${id}`);
/** The card's Take Test: a link while it may start, a disabled button when the plan does not allow it. */
const takeTest = (id: string, name = 'Take Test') => within(card(id)).queryByRole('link', { name }) ?? within(card(id)).getByRole('button', { name });
const startable = (id: string, name?: string) => {
  const el = takeTest(id, name);
  expect(el.tagName).toBe('A');
  expect(el).not.toHaveAttribute('data-disabled');
};
const blocked = (id: string, name?: string) => {
  const el = takeTest(id, name);
  expect(el.tagName).toBe('BUTTON');
  expect(el).toBeDisabled();
};

test('English: the plan, its end date and what is left; a spent kind is disabled with its reason and a link to the plans', async () => {
  await renderList({ sets, entitlement: monthlyPlan({ mock: { limit: 10, used: 10 } }) });
  const summary = screen.getByTestId('allowance-summary');
  expect(summary).toHaveTextContent('Monthly plan · until 15 Jan 2099');
  expect(within(summary).getByTestId('mock-left')).toHaveTextContent('Mock tests left: 0');
  expect(within(summary).getByTestId('practice-left')).toHaveTextContent('Practice exams left: 2');

  // The mock test: no start, the reason, and the way to a plan.
  blocked('mock-1');
  const reason = within(card('mock-1')).getByTestId('start-blocked');
  expect(reason).toHaveTextContent('No mock tests left in your plan');
  expect(within(reason).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/plan');
  expect(takeTest('mock-1')).toHaveAccessibleDescription(/No mock tests left in your plan/);
  // Practice is left, and the free mock needs nothing; the existing marks are all there.
  startable('prac-1');
  expect(within(card('prac-1')).queryByTestId('start-blocked')).toBeNull();
  expect(within(card('free-1')).getByTestId('free-badge')).toHaveTextContent('Free');
  startable('free-1');
  expect(within(card('mock-1')).queryByTestId('free-badge')).toBeNull();
  expect(within(card('mock-1')).getByTestId('availability')).toHaveTextContent('On this device');
});

test('starting a test on the device (offline) uses one at once; an unfinished attempt can always be resumed', async () => {
  const db = await renderList({ sets, entitlement: monthlyPlan({ practice: { limit: 2, used: 1 } }) });
  expect(screen.getByTestId('practice-left')).toHaveTextContent('Practice exams left: 1');
  startable('prac-1');

  // The learner starts the last practice exam: nothing is sent, the replica alone says so.
  await db.test_summary.insert(attemptAt('prac-1', 'attempt-local-1', { status: 'IN_PROGRESS', submittedAt: null }));
  expect(await screen.findByText('Practice exams left: 0')).toBeInTheDocument();
  // That attempt goes on (resume) ...
  startable('prac-1');
  // ... and once it is submitted no new practice exam starts.
  await db.test_summary.findOne('attempt-local-1').incrementalPatch({ status: 'SUBMITTED', submittedAt: Date.now() });
  expect(await within(card('prac-1')).findByTestId('start-blocked')).toHaveTextContent('No practice exams left in your plan');
  blocked('prac-1');
});

test('unlimited mock tests', async () => {
  await renderList({ sets, entitlement: monthlyPlan({ planCode: 'YEARLY', planName: { en: 'Yearly', hi: 'वार्षिक' }, mock: { limit: null, used: 40 }, practice: { limit: 24, used: 3 } }) });
  expect(screen.getByTestId('allowance-summary')).toHaveTextContent('Yearly plan · until 15 Jan 2099');
  expect(screen.getByTestId('mock-left')).toHaveTextContent('Unlimited mock tests');
  expect(screen.getByTestId('practice-left')).toHaveTextContent('Practice exams left: 21');
  startable('mock-1');
});

test('Hindi, without a plan: no active plan and a link to the plans; only the free set starts', async () => {
  await renderList({ sets, entitlement: null }, 'hi');
  const summary = screen.getByTestId('allowance-summary');
  expect(summary).toHaveTextContent('कोई सक्रिय प्लान नहीं');
  expect(within(summary).getByRole('link', { name: 'प्लान देखें' })).toHaveAttribute('href', '/plan');
  for (const id of ['mock-1', 'prac-1']) {
    expect(within(card(id)).getByTestId('start-blocked')).toHaveTextContent('यह टेस्ट देने के लिए प्लान खरीदें');
    blocked(id, 'टेस्ट दें');
  }
  expect(within(card('free-1')).getByTestId('free-badge')).toHaveTextContent('निःशुल्क');
  startable('free-1', 'टेस्ट दें');
});

test('Hindi, with a plan: its name, end date and what is left', async () => {
  await renderList({ sets, entitlement: monthlyPlan({ mock: { limit: 10, used: 4 }, practice: { limit: 2, used: 2 } }) }, 'hi');
  const summary = screen.getByTestId('allowance-summary');
  expect(summary).toHaveTextContent('मासिक प्लान');
  expect(summary).toHaveTextContent('2099 तक');
  expect(screen.getByTestId('mock-left')).toHaveTextContent('बचे मॉक टेस्ट: 6');
  expect(screen.getByTestId('practice-left')).toHaveTextContent('बची अभ्यास परीक्षाएँ: 0');
  expect(within(card('prac-1')).getByTestId('start-blocked')).toHaveTextContent('आपके प्लान में कोई अभ्यास परीक्षा नहीं बची');
});

test('a plan that has ended is no plan', async () => {
  await renderList({ sets, entitlement: monthlyPlan({ startsAt: Date.now() - 40 * 86_400_000, endsAt: Date.now() - 1000 }) });
  expect(screen.getByTestId('allowance-summary')).toHaveTextContent('No active plan');
  expect(within(card('mock-1')).getByTestId('start-blocked')).toHaveTextContent('Buy a plan to take this test');
});

test('without a plan the paid sets\' questions are not sent: locked with what unlocks them, not "downloading"; a plan bought opens them without a reload', async () => {
  const db = await renderList({ sets, entitlement: null, withoutQuestions: ['mock-1', 'prac-1'] });
  for (const id of ['mock-1', 'prac-1']) {
    const badge = within(card(id)).getByTestId('availability');
    expect(badge).toHaveTextContent('Locked');
    expect(badge).toHaveAttribute('data-locked');
    expect(within(card(id)).getByTestId('start-blocked')).toHaveTextContent('Buy a plan to take this test');
    expect(within(within(card(id)).getByTestId('start-blocked')).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/plan');
    expect(within(card(id)).getByTestId('questions-with-plan')).toHaveTextContent('Its questions download to this device when a plan covers it.');
    blocked(id);
  }
  expect(screen.queryByText('Downloading…')).toBeNull();
  // Only the free set is on its way (here: already on the device): the download is complete.
  expect(screen.getByTestId('download-progress')).toHaveTextContent('Your test is on this device');
  startable('free-1');

  // A plan is bought: its entitlement and then the questions replicate; the cards follow.
  await db.entitlement.insert(monthlyPlan());
  expect(await within(card('mock-1')).findByText('Downloading…')).toBeInTheDocument();
  await db.qs_detail.bulkInsert(['mock-1', 'prac-1'].map((id) => detailOf(sets.find((s) => s.id === id)!)));
  expect(await within(card('mock-1')).findByText('On this device')).toBeInTheDocument();
  startable('mock-1');
  startable('prac-1');
  expect(screen.getByTestId('download-progress')).toHaveTextContent('All 3 tests are on this device');
});

test('Hindi: a locked set says so in Hindi', async () => {
  await renderList({ sets, entitlement: null, withoutQuestions: ['mock-1'] }, 'hi');
  expect(within(card('mock-1')).getByTestId('availability')).toHaveTextContent('लॉक है');
  expect(within(card('mock-1')).getByTestId('questions-with-plan')).toHaveTextContent('प्लान से कवर होने पर इसके प्रश्न इस डिवाइस पर डाउनलोड होंगे।');
  expect(screen.queryByText('डाउनलोड हो रहा है…')).toBeNull();
});

test('the list filters by subject and exam from the tags on the device, labelled in the chosen language (offline: nothing is fetched)', async () => {
  const tagged = [
    questionSet('mock-1', 'Weekly mock 1', { isM: true, pts: 3, tags: { s: ['gk'], e: ['ssc-cgl'], c: [] } }),
    questionSet('prac-1', 'Algebra practice', { pts: 2, tags: { s: ['arithmetic'], e: ['ssc-cgl', 'ctet'], c: [] } }),
    questionSet('free-1', 'Sample mock', { isM: true, free: true, pts: 1, tags: { s: ['gk'], e: ['ctet'], c: [] } }),
  ];
  const db = await renderList({ sets: tagged, entitlement: monthlyPlan() }, 'hi');
  await db.tag.bulkInsert([
    { id: 'gk', key: 's', tid: 'gk', tags: { en: 'General Knowledge', hi: 'सामान्य ज्ञान' }, uat: 1 },
    { id: 'arithmetic', key: 's', tid: 'arithmetic', tags: { en: 'Arithmetic', hi: 'अंकगणित' }, uat: 1 },
    { id: 'ctet', key: 'e', tid: 'ctet', tags: { en: 'CTET' }, uat: 1 },
  ]);
  const user = userEvent.setup();
  const filter = screen.getByTestId('exam-tag-filter');
  await user.click(within(filter).getByRole('combobox', { name: 'विषय' }));
  await user.click(await screen.findByRole('option', { name: 'सामान्य ज्ञान', hidden: true }));
  expect(screen.queryByTestId('exam-card-prac-1')).toBeNull();
  expect(card('mock-1')).toBeInTheDocument();
  expect(card('free-1')).toBeInTheDocument();

  // A tag without a Hindi name shows its English one; an unknown one, as it is stored.
  await user.click(within(filter).getByRole('combobox', { name: 'परीक्षा' }));
  expect(await screen.findByRole('option', { name: 'ssc-cgl', hidden: true })).toBeInTheDocument();
  await user.click(screen.getByRole('option', { name: 'CTET', hidden: true }));
  expect(screen.queryByTestId('exam-card-mock-1')).toBeNull();
  expect(card('free-1')).toBeInTheDocument();

  // Within a group, any of the chosen tags: a second subject widens the list again.
  await user.click(within(filter).getByRole('combobox', { name: 'विषय' }));
  await user.click(await screen.findByRole('option', { name: 'अंकगणित', hidden: true }));
  expect(await screen.findByTestId('exam-card-prac-1')).toBeInTheDocument();
  expect(card('free-1')).toBeInTheDocument();
  expect(screen.queryByTestId('exam-card-mock-1')).toBeNull();
});
