import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ReplicaDatabase } from '../../../db/database';
import { ReplicaContext } from '../../../db/replica-context';
import { clearSession, setSession } from '../../../lib/session';
import { learnerSession } from '../../../testing/fetch-mock';
import { renderWithApp } from '../../../testing/render';
import { attemptAt, monthlyPlan, openFixture, PERSON, questionSet } from './allowance-fixture';
import ExamIntroPage from './exam-intro-page';
import ExamResultPage from './exam-result-page';

let open: ReplicaDatabase | null = null;
beforeEach(() => setSession({ ...learnerSession, id: PERSON }, false));
afterEach(async () => {
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

/** The result page of a set, with the learner's submitted attempt on the device. */
async function renderResult(overLimit: string[], lang = 'en') {
  const { db, replica } = await openFixture({
    sets: [mock],
    entitlement: monthlyPlan({ mock: { limit: 10, used: 10 }, overLimit }),
    attempts: [attemptAt('mock-1', 'attempt-over-1')],
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
  await act(() => router.navigate('/exam-result/mock-1/false'));
}

test('an attempt the server found past the allowance says so on its result page', async () => {
  await renderResult(['attempt-over-1']);
  expect(await screen.findByTestId('over-limit')).toHaveTextContent("Taken over your plan's limit");
});

test('Hindi: the over-the-limit note in Hindi', async () => {
  await renderResult(['attempt-over-1'], 'hi');
  expect(await screen.findByTestId('over-limit')).toHaveTextContent('आपके प्लान की सीमा से अधिक दिया गया');
});

test('an attempt within the allowance has no such note', async () => {
  await renderResult(['another-attempt']);
  expect(await screen.findByTestId('result-pending')).toBeInTheDocument();
  expect(screen.queryByTestId('over-limit')).toBeNull();
});
