import { screen, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import type { MyOrder, MyPlan } from '@pm/protocol/payment';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import MyPlanSection from './my-plan-section';

const MONTHLY = { code: 'ONE_MONTH_PLAN', name: { en: 'Monthly', hi: 'मासिक' } };
const YEARLY = { code: 'ANNUAL_PLAN', name: { en: 'Yearly', hi: 'वार्षिक' } };
const at = (iso: string) => Date.parse(iso);

const PLAN: MyPlan = {
  planCode: 'ANNUAL_PLAN',
  name: YEARLY.name,
  startsAt: at('2025-11-25T10:00:00Z'),
  endsAt: at('2026-11-25T10:00:00Z'),
  mock: { limit: null, used: 5 },
  practice: { limit: 24, used: 3 },
};
const ORDERS: MyOrder[] = [
  { id: 'o-paid', createdAt: at('2025-11-25T09:58:00Z'), amount: 72000, status: 'PAID', provider: 'phonepe', plan: YEARLY, receiptNo: 12, paidAt: at('2025-11-25T10:00:00Z') },
  { id: 'o-failed', createdAt: at('2025-10-02T08:00:00Z'), amount: 15000, status: 'FAILED', provider: 'phonepe', plan: MONTHLY, receiptNo: null, paidAt: null },
  { id: 'o-gift', createdAt: at('2025-09-15T08:00:00Z'), amount: 12345600, status: 'PENDING', provider: 'phonepe', plan: null, receiptNo: null, paidAt: null },
];

function mockMy(data: { plan: MyPlan | null; orders: MyOrder[] }) {
  return mockApi(({ method, path }) => (method === 'GET' && path === '/payment/my' ? json({ success: true, data }) : json({ success: false, msg: 'unexpected' }, 500)));
}

const renderSection = (lang = 'en') => renderWithApp(<MyPlanSection />, { route: '/profile', lang, namespaces: ['plan'] });

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

test('the active plan with what is left and its end date, then past orders with a receipt for the paid one', async () => {
  setSession(learnerSession, false);
  const { calls } = mockMy({ plan: PLAN, orders: ORDERS });
  await renderSection();
  const active = await screen.findByTestId('active-plan');
  expect(active).toHaveTextContent('Yearly');
  expect(active).toHaveTextContent('Mock tests: Unlimited');
  expect(active).toHaveTextContent('Practice exams: 3/24');
  expect(active).toHaveTextContent('Valid till 25 November 2026');
  expect(calls[0]!.headers.authorization).toBe('Bearer token-1');

  const table = screen.getByRole('table', { name: 'Past orders' });
  const paid = within(table).getByTestId('order-o-paid');
  expect(paid).toHaveTextContent('25 November 2025');
  expect(paid).toHaveTextContent('Yearly');
  expect(paid).toHaveTextContent('₹720');
  expect(paid).toHaveTextContent('Paid');
  expect(within(paid).getByRole('link', { name: 'No. 12' })).toHaveAttribute('href', '/receipt/o-paid');

  const failed = within(table).getByTestId('order-o-failed');
  expect(failed).toHaveTextContent('Monthly');
  expect(failed).toHaveTextContent('₹150');
  expect(failed).toHaveTextContent('Failed');
  expect(within(failed).queryByRole('link')).not.toBeInTheDocument();

  // Paise to rupees with the Indian grouping; an order without a plan is a donation.
  const gift = within(table).getByTestId('order-o-gift');
  expect(gift).toHaveTextContent('₹1,23,456');
  expect(gift).toHaveTextContent('Donation');
  expect(gift).toHaveTextContent('Pending');
});

test('limits with a number show used/limit', async () => {
  setSession(learnerSession, false);
  mockMy({ plan: { ...PLAN, planCode: 'ONE_MONTH_PLAN', name: MONTHLY.name, mock: { limit: 10, used: 4 }, practice: { limit: 2, used: 0 } }, orders: [] });
  await renderSection();
  const active = await screen.findByTestId('active-plan');
  expect(active).toHaveTextContent('Mock tests: 4/10');
  expect(active).toHaveTextContent('Practice exams: 0/2');
  expect(screen.getByText('No orders yet.')).toBeInTheDocument();
});

test('no active plan: says so, with a link to the plans', async () => {
  setSession(learnerSession, false);
  mockMy({ plan: null, orders: [ORDERS[1]!] });
  await renderSection();
  expect(await screen.findByText('No active plan')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/plan');
  expect(screen.getByTestId('order-o-failed')).toHaveTextContent('Failed');
});

test('in Hindi', async () => {
  setSession(learnerSession, false);
  mockMy({ plan: PLAN, orders: ORDERS });
  await renderSection('hi');
  const active = await screen.findByTestId('active-plan');
  expect(screen.getByRole('heading', { name: 'मेरा प्लान' })).toBeInTheDocument();
  expect(active).toHaveTextContent('वार्षिक');
  expect(active).toHaveTextContent('मॉक टेस्ट: असीमित');
  expect(active).toHaveTextContent('अभ्यास परीक्षाएँ: 3/24');
  expect(active).toHaveTextContent('25 नवंबर 2026 तक मान्य');
  const paid = screen.getByTestId('order-o-paid');
  expect(paid).toHaveTextContent('भुगतान हुआ');
  expect(within(paid).getByRole('link', { name: 'क्रमांक 12' })).toHaveAttribute('href', '/receipt/o-paid');
  expect(screen.getByTestId('order-o-gift')).toHaveTextContent('दान');
});

test('a failure to load is shown with a retry', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: false, msg: 'Some error occurred' }, 500));
  await renderSection();
  expect(await screen.findByText('Your plan could not be loaded.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
});
