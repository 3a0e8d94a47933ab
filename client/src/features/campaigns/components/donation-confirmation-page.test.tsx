import { screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { PENDING_POLL_MS } from '@/lib/payments/use-payment-status';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { donationFixture } from '../donations.fixture';
import DonationConfirmationPage from './donation-confirmation-page';

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const render = (query: string, lang = 'en') => renderWithApp(<DonationConfirmationPage />, { route: `/donation-confirmation?${query}`, lang, namespaces: ['campaign'] });

test('paid: thanks, the amount, what reaches the campaign, the receipt number and the donation\'s page with the token', async () => {
  const { calls } = mockApi(() => json({ success: true, msg: 'Payment successful', data: donationFixture() }));
  await render('orderId=order-9&t=tok-1');
  expect(await screen.findByRole('heading', { name: 'Thank you for your donation' })).toBeInTheDocument();
  expect(screen.getByTestId('donation-amount')).toHaveTextContent('₹101');
  expect(screen.getByText('₹94.94 of it reaches the campaign.')).toBeInTheDocument();
  expect(screen.getByTestId('donation-receipt-no')).toHaveTextContent('Receipt No. PMT/2026-27/7');
  expect(screen.getByRole('link', { name: 'View receipt' })).toHaveAttribute('href', '/donations/order-9?t=tok-1');
  expect(screen.getByRole('link', { name: 'Back to the campaign' })).toHaveAttribute('href', '/campaigns/c-1');
  expect(calls[0]!.path).toBe('/donation/order-9');
  expect(calls[0]!.query.get('t')).toBe('tok-1');
});

test('open at the provider: asked again until it is paid; the token kept by the tab serves an address without it', async () => {
  sessionStorage.setItem('donation-token:order-9', 'tok-kept');
  let answers = 0;
  const { calls } = mockApi(() => {
    answers += 1;
    return answers < 2 ? json({ success: false, msg: 'Payment pending', data: donationFixture({ status: 'PENDING', receiptNo: null, paidAt: null }) }) : json({ success: true, data: donationFixture() });
  });
  await render('merchantTransactionId=order-9');
  expect(await screen.findByText('Payment is being confirmed')).toBeInTheDocument();
  // Asked again after PENDING_POLL_MS.
  expect(await screen.findByTestId('donation-receipt-no', {}, { timeout: PENDING_POLL_MS + 3000 })).toHaveTextContent('PMT/2026-27/7');
  expect(calls.map((c) => c.query.get('t'))).toEqual(['tok-kept', 'tok-kept']);
});

test('failed, and cancelled: no money taken, Donate again', async () => {
  mockApi(() => json({ success: false, msg: 'Payment failed', data: donationFixture({ status: 'FAILED', receiptNo: null, paidAt: null }) }));
  const { unmount } = await render('orderId=order-9&t=tok-1');
  expect(await screen.findByRole('heading', { name: 'Payment failed' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Donate again' })).toHaveAttribute('href', '/campaigns/c-1/donate');
  unmount();
  vi.restoreAllMocks();
  mockApi(() => json({ success: false, msg: 'Payment cancelled', data: donationFixture({ status: 'CANCELLED', receiptNo: null, paidAt: null }) }));
  await render('orderId=order-9&t=tok-1', 'hi');
  expect(await screen.findByRole('heading', { name: 'भुगतान रद्द किया गया' })).toBeInTheDocument();
});

test('a donation the server does not show (a wrong token) is said as such, not as a failed payment', async () => {
  mockApi(() => json({ success: false, msg: 'Donation not found' }, 404));
  await render('orderId=order-9&t=wrong');
  // Other alerts of the app (a notification) may be on screen: the one with this title.
  const alert = (await screen.findByText('Could not open this donation', { exact: false })).closest('[role="alert"]');
  expect(alert).toHaveTextContent('Could not open this donation');
  expect(alert).toHaveTextContent('Donation not found');
  expect(screen.queryByRole('heading', { name: 'Payment failed' })).toBeNull();
});
