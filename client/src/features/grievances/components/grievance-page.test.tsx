import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { viewFixture } from '../grievances.fixture';
import GrievancePage from './grievance-page';

afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const DAY = 86_400_000;
const answered = viewFixture({
  status: 'ANSWERED',
  messages: [{ id: 'm-1', author: { id: 'demo-trustee', name: 'Tara Trustee' }, staff: true, text: 'We sent the receipt again.', createdAt: Date.UTC(2026, 5, 11) }],
});
const render = (lang = 'en') =>
  renderWithApp(<Navigate to="/grievances/g-1" replace />, { route: '/start', namespaces: ['grievance'], lang, extraRoutes: [{ path: '/grievances/:id', element: <GrievancePage /> }] });
const trustee = { ...learnerSession, id: 'demo-trustee', name: 'Tara Trustee', permissions: 'APPROVE_CAMPAIGN,HANDLE_GRIEVANCE,VIEW_REPORT' };

test('the raiser reads the trust\'s answer and writes back; no staff actions', async () => {
  setSession(learnerSession, false);
  const { calls } = mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/grievance/g-1') return json({ success: true, data: answered });
    if (method === 'POST' && path === '/grievance/g-1/messages') return json({ success: true, msg: 'Message sent', data: { ...answered, status: 'OPEN' } }, 201);
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
  await render();
  expect(await screen.findByRole('heading', { level: 1, name: 'No receipt came' })).toBeInTheDocument();
  expect(screen.getByTestId('grievance-number')).toHaveTextContent('G2026-27-000007');
  const [message] = screen.getAllByTestId('grievance-message');
  expect(message).toHaveTextContent('The trust (Tara Trustee)');
  expect(message).toHaveTextContent('We sent the receipt again.');
  expect(screen.getByRole('link', { name: 'order-9' })).toHaveAttribute('href', '/donations/order-9');
  expect(screen.queryByTestId('staff-actions')).toBeNull();
  await userEvent.type(screen.getByRole('textbox', { name: 'Your message' }), 'It has not arrived.');
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ text: 'It has not arrived.' }));
});

test('resolved: the note, and reopening within the window (in Hindi)', async () => {
  setSession(learnerSession, false);
  const resolvedAt = Date.now() - DAY;
  const resolved = viewFixture({ status: 'RESOLVED', resolvedAt, resolutionNote: 'रसीद फिर से भेजी गई।', reopenUntil: resolvedAt + 30 * DAY });
  const { calls } = mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/grievance/g-1') return json({ success: true, data: resolved });
    if (method === 'POST' && path === '/grievance/g-1/reopen') return json({ success: true, msg: 'Grievance reopened', data: viewFixture() });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
  await render('hi');
  const box = await screen.findByTestId('grievance-resolution');
  expect(box).toHaveTextContent('ट्रस्ट का नोट: रसीद फिर से भेजी गई।');
  expect(screen.queryByRole('textbox', { name: 'आपका संदेश' })).toBeNull();
  await userEvent.click(within(box).getByRole('button', { name: 'फिर से खोलें' }));
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/grievance/g-1/reopen')).toBe(true));
});

test('past the window, no reopening', async () => {
  setSession(learnerSession, false);
  const resolvedAt = Date.now() - 40 * DAY;
  mockApi(() => json({ success: true, data: viewFixture({ status: 'RESOLVED', resolvedAt, resolutionNote: 'Done', reopenUntil: resolvedAt + 30 * DAY }) }));
  await render();
  await screen.findByTestId('grievance-resolution');
  expect(screen.queryByRole('button', { name: 'Reopen' })).toBeNull();
});

test('staff answer, assign and resolve (the note required); a guest\'s report shows its way back', async () => {
  setSession(trustee, false);
  const report = viewFixture({ subject: 'CAMPAIGN', subjectId: 'c-1', reportReason: 'FRAUD', raiser: null, contact: 'guest@example.com', title: 'Report: this campaign may be a fraud' });
  const { calls } = mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/grievance/g-1') return json({ success: true, data: report });
    if (method === 'GET' && path === '/grievance/handlers') return json({ success: true, data: [{ id: 'demo-trustee', name: 'Tara Trustee' }, { id: 'demo-admin', name: 'Asha Admin' }] });
    if (method === 'POST') return json({ success: true, msg: 'ok', data: report });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
  await render();
  expect(await screen.findByText('Way back: guest@example.com')).toBeInTheDocument();
  expect(screen.getByText(/A report of this campaign: It may be a fraud/)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'c-1' })).toHaveAttribute('href', '/campaigns/c-1');
  expect(screen.getByRole('link', { name: 'Back to the queue' })).toHaveAttribute('href', '/grievance-queue');

  await userEvent.type(screen.getByRole('textbox', { name: 'Answer the raiser' }), 'We are checking.');
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/grievance/g-1/messages')?.body).toEqual({ text: 'We are checking.' }));

  await userEvent.click(screen.getByRole('combobox', { name: 'Assign to' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Asha Admin' }));
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/grievance/g-1/assign')?.body).toEqual({ ownerId: 'demo-admin' }));

  await userEvent.click(within(screen.getByTestId('staff-actions')).getByRole('button', { name: 'Resolve' }));
  const dialog = await screen.findByRole('dialog', { name: 'Resolve this grievance?' });
  const confirm = within(dialog).getByRole('button', { name: 'Resolve' });
  expect(confirm).toBeDisabled();
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Resolution note/ }), 'The campaign was checked and paused.');
  await userEvent.click(confirm);
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/grievance/g-1/resolve')?.body).toEqual({ note: 'The campaign was checked and paused.' }));
});

test('a grievance that is not the reader\'s: the server\'s 404 is shown', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: false, msg: 'Grievance not found' }, 404));
  await render();
  expect(await screen.findByRole('alert')).toHaveTextContent('Grievance not found');
});
