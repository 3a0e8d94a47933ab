import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { rowFixture, viewFixture } from '../grievances.fixture';
import GrievancesPage from './grievances-page';

beforeEach(() => setSession(learnerSession, false));
afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const donation = { orderId: 'order-9', status: 'PAID', campaign: { id: 'c-1', title: { en: 'Books for Asha', hi: '' } }, amount: 5100, share: 306, toCampaign: 4794, name: 'Lata', anonymous: false, createdAt: Date.UTC(2026, 5, 1), paidAt: Date.UTC(2026, 5, 1), receiptNo: 'PMT/2026-27/7' };

function server() {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/grievance/mine') return json({ success: true, data: [rowFixture(), rowFixture({ id: 'g-2', number: 'G2026-27-000003', title: 'Late answer', status: 'ANSWERED', overdue: true })] });
    if (method === 'GET' && path === '/donation/mine') return json({ success: true, data: [donation] });
    if (method === 'POST' && path === '/grievance') return json({ success: true, msg: 'Your grievance has been registered', data: viewFixture({ id: 'g-9', number: 'G2026-27-000009' }) }, 201);
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

test('"Raise a grievance" from a donation: the donation chosen, the title and text sent, then its thread; the list of mine with overdue ones marked', async () => {
  const { calls } = server();
  const { router } = await renderWithApp(<GrievancesPage />, { route: '/grievances?subject=DONATION&id=order-9', namespaces: ['grievance'], extraRoutes: [{ path: '/grievances/:id', element: <div data-testid="thread" /> }] });
  const items = await screen.findAllByTestId('grievance-item');
  expect(items[0]).toHaveTextContent('No receipt came');
  expect(within(items[1]!).getByTestId('grievance-due')).toHaveTextContent(/^Overdue since/);
  expect(within(items[1]!).getByTestId('grievance-status')).toHaveTextContent('Answered');

  expect(screen.getByRole('combobox', { name: 'About' })).toHaveValue('A donation');
  await vi.waitFor(() => expect((screen.getByRole('combobox', { name: /Which donation/ }) as HTMLInputElement).value).toMatch(/^Books for Asha · ₹51 · /));
  const send = screen.getByRole('button', { name: 'Raise the grievance' });
  expect(send).toBeDisabled();
  await userEvent.type(screen.getByRole('textbox', { name: /Title/ }), 'No receipt came');
  await userEvent.type(screen.getByRole('textbox', { name: /What happened/ }), 'I gave and no receipt came.');
  await userEvent.click(send);
  expect(await screen.findByTestId('thread')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/grievances/g-9');
  expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ subject: 'DONATION', subjectId: 'order-9', title: 'No receipt came', text: 'I gave and no receipt came.' });
});

test('about something else names nothing; in Hindi', async () => {
  const { calls } = server();
  await renderWithApp(<GrievancesPage />, { route: '/grievances', namespaces: ['grievance'], lang: 'hi' });
  expect(await screen.findByRole('heading', { level: 1, name: 'शिकायतें' })).toBeInTheDocument();
  expect(screen.getByRole('combobox', { name: 'किस बारे में' })).toHaveValue('कुछ और');
  expect(screen.queryByRole('combobox', { name: /कौन-सा दान/ })).toBeNull();
  await userEvent.type(screen.getByRole('textbox', { name: /शीर्षक/ }), 'Login');
  await userEvent.type(screen.getByRole('textbox', { name: /क्या हुआ/ }), 'OTP nahin aaya');
  await userEvent.click(screen.getByRole('button', { name: 'शिकायत दर्ज करें' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ subject: 'OTHER', title: 'Login', text: 'OTP nahin aaya' }));
});
