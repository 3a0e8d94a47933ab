import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import type { Receipt } from '@pm/protocol/payment';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import ReceiptPage from './receipt-page';
import { formatDate } from '@/lib/intl-format';

const RECEIPT: Receipt = {
  receiptNo: 12,
  orderId: 'o-paid',
  paidAt: Date.parse('2025-11-25T10:00:00Z'),
  trust: { name: 'Pariksha Mitra Shiksha Trust', nameHi: 'परीक्षा मित्र शिक्षा ट्रस्ट', address: '12 Gandhi Marg, Jaipur, Rajasthan 302001' },
  buyer: { name: 'Lata Learner', mobile: '+919000000003' },
  plan: { code: 'ANNUAL_PLAN', name: { en: 'Yearly', hi: 'वार्षिक' } },
  amount: 72000,
  provider: 'phonepe',
  transactionId: 'TX-778899',
  sandbox: false,
};

function mockReceipt(answer = () => json({ success: true, data: RECEIPT })) {
  return mockApi(({ method, path }) => (method === 'GET' && path === '/payment/receipt/o-paid' ? answer() : json({ success: false, msg: 'unexpected' }, 500)));
}

/** The page reads its order id from the route /receipt/:id. */
const renderReceipt = (lang = 'en') =>
  renderWithApp(<Navigate to="/receipt/o-paid" replace />, {
    route: '/start',
    lang,
    namespaces: ['plan'],
    extraRoutes: [{ path: '/receipt/:id', element: <ReceiptPage /> }],
  });

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

test('the receipt: number, trust, date, buyer, plan, amount in rupees, transaction; Print prints', async () => {
  const user = userEvent.setup();
  setSession(learnerSession, false);
  const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
  const { calls } = mockReceipt();
  await renderReceipt();
  const receipt = await screen.findByTestId('receipt');
  expect(receipt).toHaveTextContent('Receipt No. 12');
  expect(screen.getByRole('heading', { name: 'Pariksha Mitra Shiksha Trust' })).toBeInTheDocument();
  expect(receipt).toHaveTextContent('12 Gandhi Marg, Jaipur, Rajasthan 302001');
  // The app's one date style (lib/intl-format).
  expect(receipt).toHaveTextContent(formatDate(Date.parse('2025-11-25T10:00:00Z'), 'en', 'dateTime'));
  expect(receipt).toHaveTextContent('Received fromLata Learner');
  expect(receipt).toHaveTextContent('PlanYearly');
  expect(receipt).toHaveTextContent('Amount₹720');
  expect(receipt).toHaveTextContent('Paid viaPhonePe');
  expect(receipt).toHaveTextContent('Transaction IDTX-778899');
  expect(calls[0]!.headers.authorization).toBe('Bearer token-1');
  // Paid for real: no sandbox mark.
  expect(screen.queryByTestId('receipt-sandbox')).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Print' }));
  expect(print).toHaveBeenCalledOnce();
});

test('a receipt of the payment sandbox says SANDBOX and that no money was taken, in English and in Hindi', async () => {
  setSession(learnerSession, false);
  mockReceipt(() => json({ success: true, data: { ...RECEIPT, sandbox: true } }));
  await renderReceipt();
  expect(await screen.findByTestId('receipt-sandbox')).toHaveTextContent('SANDBOX');
  expect(screen.getByTestId('receipt')).toHaveTextContent('no money was taken');
});

test('the sandbox mark in Hindi', async () => {
  setSession(learnerSession, false);
  mockReceipt(() => json({ success: true, data: { ...RECEIPT, sandbox: true } }));
  await renderReceipt('hi');
  expect(await screen.findByTestId('receipt-sandbox')).toHaveTextContent('सैंडबॉक्स (SANDBOX)');
  expect(screen.getByTestId('receipt')).toHaveTextContent('कोई पैसा नहीं लिया गया');
});

test('in Hindi', async () => {
  setSession(learnerSession, false);
  mockReceipt(() => json({ success: true, data: { ...RECEIPT, amount: 12345650 } }));
  await renderReceipt('hi');
  const receipt = await screen.findByTestId('receipt');
  expect(receipt).toHaveTextContent('रसीद क्रमांक 12');
  expect(receipt).toHaveTextContent(formatDate(Date.parse('2025-11-25T10:00:00Z'), 'hi', 'dateTime'));
  expect(receipt).toHaveTextContent('प्लानवार्षिक');
  expect(receipt).toHaveTextContent('राशि₹1,23,456.50');
  expect(receipt).toHaveTextContent('लेन-देन आईडीTX-778899');
  expect(screen.getByRole('button', { name: 'प्रिंट करें' })).toBeInTheDocument();
});

test("another person's order or an unpaid one: the server's message, no Print", async () => {
  setSession(learnerSession, false);
  mockReceipt(() => json({ success: false, msg: 'Receipt not found' }, 404));
  await renderReceipt();
  expect(await screen.findByText('The receipt could not be loaded.')).toBeInTheDocument();
  expect(screen.getByText('Receipt not found')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
});
