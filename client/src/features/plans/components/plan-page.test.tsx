import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '../../../lib/session';
import { learnerSession } from '../../../testing/fetch-mock';
import { renderWithApp } from '../../../testing/render';
import type { PlanView } from '../api/get-plans';
import PlanPage from './plan-page';

/** The three plans of spec §9, as GET /api/plan answers. */
const PLANS: PlanView[] = [
  {
    id: 'p1',
    code: 'ANNUAL_PLAN',
    name: { en: 'Yearly', hi: 'वार्षिक' },
    total: 720,
    approx: { en: 'About ₹2 per day, ₹60 per month', hi: 'लगभग ₹2 प्रतिदिन, ₹60 प्रति माह' },
    contents: [
      { en: 'Unlimited mock tests', hi: 'असीमित मॉक टेस्ट' },
      { en: '24 practice exams', hi: '24 अभ्यास परीक्षाएँ' },
    ],
  },
  {
    id: 'p2',
    code: 'QUATERLY_MONTH_PLAN',
    name: { en: 'Quarterly', hi: 'त्रैमासिक' },
    total: 270,
    approx: { en: 'About ₹3 per day, ₹90 per month', hi: 'लगभग ₹3 प्रतिदिन, ₹90 प्रति माह' },
    contents: [{ en: '20 mock tests', hi: '20 मॉक टेस्ट' }],
  },
  {
    id: 'p3',
    code: 'ONE_MONTH_PLAN',
    name: { en: 'Monthly', hi: 'मासिक' },
    total: 150,
    approx: { en: 'About ₹5 per day', hi: 'लगभग ₹5 प्रतिदिन' },
    contents: [{ en: '10 mock tests', hi: '10 मॉक टेस्ट' }],
  },
];

const learner = learnerSession;

function mockPlans(plans: PlanView[] = PLANS) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    expect(new URL(String(input)).pathname).toBe('/api/plan');
    return new Response(JSON.stringify({ success: true, data: plans }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

const renderPlans = (lang = 'en') =>
  renderWithApp(<PlanPage />, {
    route: '/plan',
    lang,
    namespaces: ['plan'],
    extraRoutes: [
      { path: '/login', element: <div data-testid="login-page" /> },
      { path: '/contact', element: <div data-testid="contact-page" /> },
    ],
  });

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

test('the three plans with price, approx. and contents, in the chosen language', async () => {
  mockPlans();
  await renderPlans();
  const yearly = await screen.findByTestId('plan-ANNUAL_PLAN');
  expect(within(yearly).getByRole('heading', { name: 'Yearly' })).toBeInTheDocument();
  expect(yearly).toHaveTextContent('₹720');
  expect(yearly).toHaveTextContent('About ₹2 per day, ₹60 per month');
  expect(yearly).toHaveTextContent('Unlimited mock tests');
  expect(screen.getByTestId('plan-QUATERLY_MONTH_PLAN')).toHaveTextContent('₹270');
  expect(screen.getByTestId('plan-ONE_MONTH_PLAN')).toHaveTextContent('₹150');
  expect(screen.getAllByRole('button', { name: 'Buy Now' })).toHaveLength(3);
});

test('in Hindi', async () => {
  mockPlans();
  await renderPlans('hi');
  const yearly = await screen.findByTestId('plan-ANNUAL_PLAN');
  expect(within(yearly).getByRole('heading', { name: 'वार्षिक' })).toBeInTheDocument();
  expect(yearly).toHaveTextContent('असीमित मॉक टेस्ट');
  expect(screen.getAllByRole('button', { name: 'अभी खरीदें' })).toHaveLength(3);
});

test('a guest pressing Buy Now goes to /login, and /plan is remembered for afterwards', async () => {
  const user = userEvent.setup();
  mockPlans();
  await renderPlans();
  const monthly = await screen.findByTestId('plan-ONE_MONTH_PLAN');
  await user.click(within(monthly).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByTestId('login-page')).toBeInTheDocument();
  expect(sessionStorage.getItem('redirectUrl')).toBe('/plan');
});

test('a signed-in learner is told that online payment comes later and can write to the trust', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  mockPlans();
  await renderPlans();
  const yearly = await screen.findByTestId('plan-ANNUAL_PLAN');
  await user.click(within(yearly).getByRole('button', { name: 'Buy Now' }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent('Buy this plan through the trust');
  expect(dialog).toHaveTextContent('Yearly plan (₹720)');
  await user.click(within(dialog).getByRole('link', { name: 'Write to us' }));
  expect(await screen.findByTestId('contact-page')).toBeInTheDocument();
  expect(sessionStorage.getItem('redirectUrl')).toBeNull();
});

test('an amount below 1 is refused with Invalid amount!!!', async () => {
  const user = userEvent.setup();
  setSession(learner, false);
  mockPlans([{ ...PLANS[2]!, total: 0 }]);
  await renderPlans();
  const monthly = await screen.findByTestId('plan-ONE_MONTH_PLAN');
  await user.click(within(monthly).getByRole('button', { name: 'Buy Now' }));
  expect(await screen.findByText('Invalid amount!!!')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});
