import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import { resetSyncStatus, setSyncStatus } from '@/db/sync/sync-status';
import { clearSession, setSession } from '@/lib/session';
import { learnerSession } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { attemptAt, monthlyPlan, openFixture, PERSON, questionSet } from './allowance.fixture';
import ExamIntroPage from './exam-intro-page';
import ExamResultPage from './exam-result-page';

let open: ReplicaDatabase | null = null;
beforeEach(() => setSession({ ...learnerSession, id: PERSON }, false));
afterEach(async () => {
  resetSyncStatus();
  clearSession();
  await open?.remove();
  open = null;
});

const mock = questionSet('mock-1', 'Weekly mock 1', { isM: true });
const free = questionSet('free-1', 'Sample mock', { isM: true, free: true });

/** The take-exam route reached by a deep link (not through the exam list). */
async function renderIntro(docs: Parameters<typeof openFixture>[0], qsid: string, lang = 'en') {
  const { db, replica } = await openFixture(docs);
  open = db;
  const { router } = await renderWithApp(<div data-testid="start" />, {
    lang,
    namespaces: ['exam'],
    extraRoutes: [
      {
        path: '/take-exam/*',
        element: (
          <ReplicaContext.Provider value={replica}>
            <ExamIntroPage />
          </ReplicaContext.Provider>
        ),
      },
    ],
  });
  await act(() => router.navigate(`/take-exam/${qsid}`));
  return db;
}

test('a deep link to a test the plan does not allow: Start Test is disabled, with the reason and the plans', async () => {
  const db = await renderIntro({ sets: [mock, free], entitlement: monthlyPlan({ mock: { limit: 10, used: 10 } }) }, 'mock-1');
  const reason = await screen.findByTestId('start-blocked');
  expect(reason).toHaveTextContent('No mock tests left in your plan');
  expect(within(reason).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/plan');
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();
  expect(await db.test_summary.count().exec()).toBe(0);
});

test('Hindi, without a plan: the reason in Hindi', async () => {
  await renderIntro({ sets: [mock], entitlement: null }, 'mock-1', 'hi');
  expect(await screen.findByTestId('start-blocked')).toHaveTextContent('यह टेस्ट देने के लिए प्लान खरीदें');
  expect(screen.getByRole('button', { name: 'टेस्ट शुरू करें' })).toBeDisabled();
});

test('a free set starts without a plan', async () => {
  await renderIntro({ sets: [free], entitlement: null }, 'free-1');
  expect(await screen.findByTestId('free-badge')).toHaveTextContent('Free');
  expect(await screen.findByRole('button', { name: 'Start Test' })).toBeEnabled();
  expect(screen.queryByTestId('start-blocked')).toBeNull();
});

test('an unfinished attempt is resumed even when nothing is left in the plan', async () => {
  await renderIntro(
    { sets: [mock], entitlement: monthlyPlan({ mock: { limit: 10, used: 10 } }), attempts: [attemptAt('mock-1', 'attempt-open-1', { status: 'IN_PROGRESS', submittedAt: null })] },
    'mock-1',
  );
  expect(await screen.findByRole('button', { name: 'Resume Test' })).toBeEnabled();
  expect(screen.queryByTestId('start-blocked')).toBeNull();
});

test('a paid set whose questions are held back: no endless "downloading", the reason and what unlocks it', async () => {
  await renderIntro({ sets: [mock], entitlement: null, withoutQuestions: ['mock-1'] }, 'mock-1');
  const reason = await screen.findByTestId('start-blocked');
  expect(reason).toHaveTextContent('Buy a plan to take this test');
  expect(reason).toHaveTextContent('Its questions download to this device when a plan covers it.');
  expect(within(reason).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/plan');
  expect(screen.queryByText('Downloading…')).toBeNull();
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();
});

test('Hindi: a held-back set says what unlocks it in Hindi', async () => {
  await renderIntro({ sets: [mock], entitlement: null, withoutQuestions: ['mock-1'] }, 'mock-1', 'hi');
  expect(await screen.findByTestId('start-blocked')).toHaveTextContent('प्लान से कवर होने पर इसके प्रश्न इस डिवाइस पर डाउनलोड होंगे।');
  expect(screen.queryByText('डाउनलोड हो रहा है…')).toBeNull();
});

test('a locked attempt is marked next to View result', async () => {
  await renderIntro(
    { sets: [mock], entitlement: monthlyPlan({ mock: { limit: 10, used: 10 }, overLimit: ['attempt-over-1'] }), attempts: [attemptAt('mock-1', 'attempt-over-1')] },
    'mock-1',
  );
  expect(await screen.findByRole('button', { name: 'View result' })).toBeEnabled();
  expect(screen.getByTestId('attempt-locked')).toHaveTextContent('Locked — buy a plan');
});

const practice = questionSet('prac-1', 'Algebra practice');

/** The result page of a practice set whose questions carry their answers, with the learner's submitted attempt on the device. */
async function renderResult(overLimit: string[], lang = 'en', { answers = true } = {}) {
  const { db, replica } = await openFixture({
    sets: [practice],
    answers,
    entitlement: monthlyPlan({ practice: { limit: 2, used: 2 }, overLimit }),
    attempts: [attemptAt('prac-1', 'attempt-over-1', { answers: { q1: { ua: 'b', status: 'ANSWERED', t: 1000 }, q2: { ua: 'a', status: 'ANSWERED', t: 1000 } } })],
  });
  open = db;
  const { router } = await renderWithApp(<div data-testid="start" />, {
    lang,
    namespaces: ['exam'],
    extraRoutes: [
      {
        path: '/exam-result/:qsid/:isSubmitAns',
        element: (
          <ReplicaContext.Provider value={replica}>
            <ExamResultPage />
          </ReplicaContext.Provider>
        ),
      },
    ],
  });
  await act(() => router.navigate('/exam-result/prac-1/false'));
}

test('a locked attempt: no score, no answers, no waiting; it says why and offers a plan', async () => {
  await renderResult(['attempt-over-1']);
  const notice = await screen.findByTestId('result-locked');
  expect(notice).toHaveTextContent('Result locked');
  expect(notice).toHaveTextContent('This attempt was taken beyond your plan. Its result, answers and rank open when a plan covers it.');
  expect(within(notice).getByRole('link', { name: 'Buy a plan' })).toHaveAttribute('href', '/plan');
  // The practice set's questions carry their answers, yet nothing is worked out from them here.
  expect(screen.queryByTestId('result-summary')).toBeNull();
  expect(screen.queryByTestId('total-marks')).toBeNull();
  expect(screen.queryByTestId('result-pending')).toBeNull();
  expect(screen.queryByText('2 + 2 = ?')).toBeNull();
});

test('Hindi: the locked notice in Hindi', async () => {
  await renderResult(['attempt-over-1'], 'hi');
  const notice = await screen.findByTestId('result-locked');
  expect(notice).toHaveTextContent('परिणाम लॉक है');
  expect(notice).toHaveTextContent('जब कोई प्लान इसे कवर करेगा, तब इसका परिणाम, उत्तर और रैंक खुलेंगे।');
  expect(within(notice).getByRole('link', { name: 'प्लान खरीदें' })).toHaveAttribute('href', '/plan');
});

test('an attempt that is not locked shows its result (here worked out on the device)', async () => {
  await renderResult(['another-attempt']);
  expect(await screen.findByTestId('total-marks')).toHaveTextContent('2');
  expect(screen.queryByTestId('result-locked')).toBeNull();
});

test('an upload refused for want of a plan (402): the answers stay here, and the page offers a plan instead of waiting', async () => {
  setSyncStatus({ planRequired: ['attempt-over-1'] });
  await renderResult([], 'en', { answers: false });
  const notice = await screen.findByTestId('result-needs-plan');
  expect(notice).toHaveTextContent('This test needs a plan. Your answers stay on this device and are sent when a plan covers them.');
  expect(within(notice).getByRole('link', { name: 'Buy a plan' })).toHaveAttribute('href', '/plan');
  expect(screen.queryByTestId('result-pending')).toBeNull();
});
