import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import type { DonationView } from '@pm/protocol/donation';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { donationFixture, receiptFixture } from '../donations.fixture';
import DonationPage from './donation-page';

afterEach(() => vi.restoreAllMocks());

function serve(donation: DonationView = donationFixture()) {
  return mockApi(({ path }) => {
    if (path === '/donation/order-9') return json({ success: donation.status === 'PAID', data: donation });
    if (path === '/donation/order-9/receipt') return donation.receiptNo ? json({ success: true, data: receiptFixture() }) : json({ success: false, msg: 'This donation is not paid yet: its receipt comes once it is' }, 409);
    return json({ success: false, msg: 'Donation not found' }, 404);
  });
}

/** The page under its route pattern, reached as the receipt e-mail's link is: /donations/:orderId?t=<token>. */
const render = (address = '/donations/order-9?t=tok-1', lang = 'en') =>
  renderWithApp(<Navigate to={address} replace />, { route: '/start', lang, namespaces: ['campaign'], extraRoutes: [{ path: '/donations/:orderId', element: <DonationPage /> }] });

test('the e-mailed link: the donation, its split and the printable receipt (trust, donor, amount in words, no goods), with the token on every call', async () => {
  const { calls } = serve();
  const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
  await render();
  const summary = await screen.findByTestId('donation-summary');
  expect(within(summary).getByTestId('donation-status')).toHaveTextContent('Paid');
  expect(within(summary).getByRole('link', { name: 'Books for Asha' })).toHaveAttribute('href', '/campaigns/c-1');
  expect(within(summary).getByTestId('donation-figures')).toHaveTextContent("You give₹101The trust's share₹6.06Reaches the campaign₹94.94");
  const receipt = await screen.findByTestId('donation-receipt');
  expect(within(receipt).getByTestId('receipt-no')).toHaveTextContent('PMT/2026-27/7');
  expect(receipt).toHaveTextContent('Pariksha Mitra Trust');
  expect(receipt).toHaveTextContent('80G approval: DEMO80G20200001');
  expect(receipt).toHaveTextContent('ABCDE1234F');
  expect(within(receipt).getByTestId('amount-in-words')).toHaveTextContent('One Hundred One Rupees Only');
  expect(receipt).toHaveTextContent('Test payment');
  expect(receipt).toHaveTextContent('without any goods or services given in return');
  await userEvent.click(screen.getByRole('button', { name: 'Print' }));
  expect(print).toHaveBeenCalled();
  expect(calls.map((c) => [c.path, c.query.get('t')])).toEqual([
    ['/donation/order-9', 'tok-1'],
    ['/donation/order-9/receipt', 'tok-1'],
  ]);
});

test('in Hindi: the trust\'s Hindi name and the amount in Hindi words', async () => {
  serve();
  await render(undefined, 'hi');
  const receipt = await screen.findByTestId('donation-receipt');
  expect(within(receipt).getByRole('heading', { name: 'परीक्षा मित्र ट्रस्ट' })).toBeInTheDocument();
  expect(within(receipt).getByTestId('amount-in-words')).toHaveTextContent('एक सौ एक रुपये');
  expect(screen.getByRole('button', { name: 'प्रिंट करें' })).toBeInTheDocument();
  expect(screen.getByTestId('donation-status')).toHaveTextContent('भुगतान हो गया');
});

test('not paid yet: the status and no receipt asked; not paid at all: Donate again', async () => {
  const { calls } = serve(donationFixture({ status: 'PENDING', receiptNo: null, paidAt: null }));
  const { unmount } = await render();
  expect(await screen.findByText(/The payment is not confirmed yet/)).toBeInTheDocument();
  expect(calls.some((c) => c.path.endsWith('/receipt'))).toBe(false);
  unmount();
  vi.restoreAllMocks();
  serve(donationFixture({ status: 'EXPIRED', receiptNo: null, paidAt: null }));
  await render();
  expect(await screen.findByRole('link', { name: 'Donate again' })).toHaveAttribute('href', '/campaigns/c-1/donate');
  expect(screen.queryByTestId('donation-receipt')).toBeNull();
});

test('a link without its token, to someone else: the server\'s answer', async () => {
  mockApi(() => json({ success: false, msg: 'Donation not found' }, 404));
  await render('/donations/order-9');
  // Other alerts of the app (a notification) may be on screen: the one with this title.
  expect((await screen.findByText('Could not open this donation', { exact: false })).closest('[role="alert"]')).toHaveTextContent('Could not open this donationDonation not found');
});
