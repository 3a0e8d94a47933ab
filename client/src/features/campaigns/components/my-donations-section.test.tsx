import { screen, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { donationFixture } from '../donations.fixture';
import MyDonationsSection from './my-donations-section';

afterEach(() => vi.restoreAllMocks());

test('the signed-in donor\'s donations, each with its receipt (or its page) link; none yet: the campaigns', async () => {
  mockApi(({ path }) =>
    path === '/donation/mine' ? json({ success: true, data: [donationFixture(), donationFixture({ orderId: 'order-8', status: 'FAILED', receiptNo: null, paidAt: null })] }) : json({}, 404),
  );
  const { unmount } = await renderWithApp(<MyDonationsSection />, { namespaces: ['campaign'] });
  const items = await screen.findAllByTestId('my-donation');
  expect(items[0]).toHaveTextContent('Books for Asha');
  expect(within(items[0]!).getByRole('link', { name: 'Receipt PMT/2026-27/7' })).toHaveAttribute('href', '/donations/order-9');
  expect(within(items[1]!).getByTestId('donation-status')).toHaveTextContent('Payment failed');
  expect(within(items[1]!).getByRole('link', { name: 'Open the donation' })).toHaveAttribute('href', '/donations/order-8');
  unmount();
  vi.restoreAllMocks();
  mockApi(() => json({ success: true, data: [] }));
  await renderWithApp(<MyDonationsSection />, { namespaces: ['campaign'], lang: 'hi' });
  expect(await screen.findByRole('link', { name: 'अभियान देखें' })).toHaveAttribute('href', '/campaigns');
  expect(screen.getByRole('heading', { name: 'मेरे दान' })).toBeInTheDocument();
});
