import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { campaignFixture } from '../campaigns.fixture';
import { listRowFixture } from '../donations.fixture';
import AdminDonationsPage from './admin-donations-page';
import CampaignPage from './campaign-page';
import { TrusteeActions } from './trustee-actions';

/*
 * The screens of moderation and reports (docs/charity.md "Moderation", "Grievances"): a paused
 * campaign's public reason in the reader's language, a held campaign, Report this campaign (a
 * guest too), Raise a grievance for the signed in, the trustee's public reason of a pause, and
 * paying back a double debit on the admin donations screen.
 */

afterEach(() => {
  clearSession();
  vi.restoreAllMocks();
});

const renderCampaign = (lang = 'en') =>
  renderWithApp(<Navigate to="/campaigns/c-1" replace />, { route: '/start', lang, namespaces: ['campaign'], extraRoutes: [{ path: '/campaigns/:id', element: <CampaignPage /> }] });

test('a paused campaign says why, in the reader\'s language, with the trustee\'s note; a held one takes no donation', async () => {
  mockApi(() => json({ success: true, data: campaignFixture({ status: 'PAUSED', takingDonations: false, publicReason: 'Fees being checked with the school.' }) }));
  const { unmount } = await renderCampaign('hi');
  const blocked = await screen.findByTestId('donate-blocked');
  expect(blocked).toHaveTextContent('ट्रस्ट ने यह अभियान रोक दिया है।');
  expect(within(blocked).getByTestId('public-reason')).toHaveTextContent('ट्रस्ट का कारण: Fees being checked with the school.');
  unmount();
  vi.restoreAllMocks();
  mockApi(() => json({ success: true, data: campaignFixture({ takingDonations: false, publicReason: null }) }));
  await renderCampaign();
  expect(await screen.findByTestId('donate-blocked')).toHaveTextContent('This campaign is not taking donations now.');
  expect(screen.queryByTestId('public-reason')).toBeNull();
});

test('a guest reports the campaign: reason and text required, the contact optional; no "Raise a grievance" for a guest', async () => {
  const { calls } = mockApi(({ method, path }) => {
    if (method === 'POST' && path === '/campaign/c-1/report') return json({ success: true, msg: 'Thank you. The trust will look into your report' }, 201);
    return json({ success: true, data: campaignFixture() });
  });
  await renderCampaign();
  await screen.findByRole('heading', { level: 1, name: 'Books for Asha' });
  expect(screen.queryByRole('link', { name: 'Raise a grievance' })).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Report this campaign' }));
  const dialog = await screen.findByRole('dialog', { name: 'Does this campaign look wrong?' });
  const send = within(dialog).getByRole('button', { name: 'Send the report' });
  expect(send).toBeDisabled();
  await userEvent.click(within(dialog).getByRole('combobox', { name: /What is wrong/ }));
  await userEvent.click(await within(dialog).findByRole('option', { name: 'The information is wrong' }));
  await userEvent.type(within(dialog).getByRole('textbox', { name: /What did you notice/ }), 'The fees are too high.');
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Your e-mail or mobile/ }), 'guest@example.com');
  await userEvent.click(send);
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reason: 'WRONG_INFO', text: 'The fees are too high.', contact: 'guest@example.com' }));
});

test('signed in, "Raise a grievance" opens the form about this campaign', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: true, data: campaignFixture() }));
  await renderCampaign();
  expect(await screen.findByRole('link', { name: 'Raise a grievance' })).toHaveAttribute('href', '/grievances?subject=CAMPAIGN&id=c-1');
});

test('the trustee gives a pause its public reason, sent as the move\'s note', async () => {
  const { calls } = mockApi(() => json({ success: true, msg: 'Campaign paused', data: campaignFixture({ status: 'PAUSED' }) }));
  await renderWithApp(<TrusteeActions campaignId="c-1" status="APPROVED" />, { namespaces: ['campaign'] });
  await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
  const dialog = await screen.findByRole('dialog', { name: 'Pause this campaign?' });
  await userEvent.type(within(dialog).getByRole('textbox', { name: /Public reason/ }), 'Fees being checked.');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/campaign/c-1/pause', body: { note: 'Fees being checked.' } }));
});

test('a double debit on the admin donations screen: what is owed, and paying it back (UPDATE_ORDER)', async () => {
  setSession({ ...learnerSession, permissions: 'SHOP_EDITOR,VIEW_REPORT,UPDATE_ORDER' }, false);
  const { calls } = mockApi(({ method, path }) => {
    if (path === '/donation/list') return json({ success: true, total: 1, data: [listRowFixture({ refundDue: 2100 })] });
    if (method === 'POST' && path === '/donation/order-9/refund-due') return json({ success: true, msg: 'The double debit has been paid back', data: { orderId: 'order-9', paidBack: 2100 } });
    return json({ success: true, total: 0, data: [] });
  });
  await renderWithApp(<AdminDonationsPage />, { namespaces: ['campaign'] });
  const owed = await screen.findByTestId('refund-due');
  expect(owed).toHaveTextContent('Double debit: ₹21 owed back');
  await userEvent.click(within(owed).getByRole('button', { name: 'Pay back' }));
  const dialog = await screen.findByRole('dialog', { name: 'Pay back the double debit?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Pay back' }));
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/donation/order-9/refund-due')).toBe(true));
});

test('without UPDATE_ORDER the debt shows, the button does not', async () => {
  setSession({ ...learnerSession, permissions: 'VIEW_REPORT' }, false);
  mockApi(({ path }) => (path === '/donation/list' ? json({ success: true, total: 1, data: [listRowFixture({ refundDue: 2100 })] }) : json({ success: true, total: 0, data: [] })));
  await renderWithApp(<AdminDonationsPage />, { namespaces: ['campaign'] });
  const owed = await screen.findByTestId('refund-due');
  expect(within(owed).queryByRole('button')).toBeNull();
});
