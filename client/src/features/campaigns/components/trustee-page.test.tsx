import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { campaignFixture, cardFixture } from '../campaigns.fixture';
import TrusteePage from './trustee-page';

afterEach(() => vi.restoreAllMocks());

const SUBMITTED = campaignFixture({ id: 'c-9', status: 'SUBMITTED', title: { en: 'Fees for Ravi', hi: '' }, raised: 0, donors: 0, recentDonations: [], ledger: [] });

function server() {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/campaign/queue') return json({ success: true, data: [{ ...SUBMITTED, others: [cardFixture()] }] });
    if (method === 'GET' && path === '/campaigns/c-9') return json({ success: true, data: SUBMITTED });
    if (method === 'GET' && path === '/campaigns') return json({ success: true, total: 1, data: [cardFixture()] });
    if (method === 'GET' && path === '/campaigns/c-1') return json({ success: true, data: campaignFixture() });
    if (method === 'POST' && /^\/campaign\/c-\d\/(approve|refuse|pause)$/.test(path)) return json({ success: true, msg: 'Campaign updated', data: SUBMITTED });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

const render = (lang = 'en') => renderWithApp(<TrusteePage />, { route: '/trustee', lang, namespaces: ['campaign'] });

test('the queue, oldest first as the server sends it, with the beneficiary and their other campaigns; a refusal needs its reason', async () => {
  const { calls } = server();
  await render();
  const item = await screen.findByTestId('queue-item');
  expect(item).toHaveTextContent('Fees for Ravi');
  expect(item).toHaveTextContent('By Asha Kumari');
  expect(item).toHaveTextContent('Other campaigns of this beneficiary (1): Books for Asha (Open)');
  await userEvent.click(within(item).getByRole('button', { name: 'Open' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Fees for Ravi' })).toBeInTheDocument();
  // No Donate for a queued campaign: the trustee's moves instead.
  expect(screen.queryByRole('link', { name: 'Donate' })).toBeNull();
  const actions = screen.getByTestId('trustee-actions');
  expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Refuse']);

  await userEvent.click(within(actions).getByRole('button', { name: 'Refuse' }));
  const dialog = await screen.findByRole('dialog', { name: 'Refuse this campaign?' });
  const refuse = within(dialog).getByRole('button', { name: 'Refuse' });
  expect(refuse).toBeDisabled();
  await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason for the refusal' }), 'Please add the school fee receipt.');
  await userEvent.click(refuse);
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/campaign/c-9/refuse')?.body).toEqual({ reason: 'Please add the school fee receipt.' }));
  // Back to the list once done.
  expect(await screen.findByRole('tab', { name: 'Waiting for approval' })).toBeInTheDocument();
});

test('approve is confirmed first', async () => {
  const { calls } = server();
  await render();
  await userEvent.click(within(await screen.findByTestId('queue-item')).getByRole('button', { name: 'Open' }));
  await userEvent.click(within(await screen.findByTestId('trustee-actions')).getByRole('button', { name: 'Approve' }));
  const dialog = await screen.findByRole('dialog', { name: 'Approve this campaign?' });
  expect(calls.some((c) => c.method === 'POST')).toBe(false);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
  await vi.waitFor(() => expect(calls.find((c) => c.path === '/campaign/c-9/approve')?.body).toEqual({}));
});

test('public campaigns: an open one may be paused or closed, in Hindi', async () => {
  const { calls } = server();
  await render('hi');
  await userEvent.click(await screen.findByRole('tab', { name: 'सार्वजनिक अभियान' }));
  await userEvent.click(within(await screen.findByTestId('public-item')).getByRole('button', { name: 'खोलें' }));
  const actions = await screen.findByTestId('trustee-actions');
  expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['रोकें', 'बंद करें']);
  await userEvent.click(within(actions).getByRole('button', { name: 'रोकें' }));
  await userEvent.click(within(await screen.findByRole('dialog', { name: 'यह अभियान रोकें?' })).getByRole('button', { name: 'रोकें' }));
  await vi.waitFor(() => expect(calls.some((c) => c.path === '/campaign/c-1/pause')).toBe(true));
});
