import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { cardFixture } from '../campaigns.fixture';
import { supplierFixture } from '../payouts.fixture';
import AdminCampaignsPage from './admin-campaigns-page';

afterEach(() => vi.restoreAllMocks());

async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

function server() {
  const payees = [supplierFixture()];
  return mockApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/campaigns') return json({ success: true, total: 1, data: [cardFixture()] });
    if (method === 'GET' && path === '/campaign/featured') return json({ success: true, data: null });
    if (method === 'GET' && path === '/campaign/c-1/payees') return json({ success: true, data: payees });
    if (method === 'POST' && path === '/campaign/c-1/payees') {
      const added = supplierFixture({ id: 'pa-new', kind: 'VPA', vpa: 'kiran@upi', accountLast4: undefined, ifsc: undefined, supplierName: 'Kiran Stationers', holderName: 'Kiran', verifiedName: 'KIRAN PATEL', nameMatches: false });
      payees.push(added);
      return json({ success: true, msg: 'Payout account verified', data: added, echo: body }, 201);
    }
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

test("staff add a campaign's supplier payee (the supplier's name, then UPI or bank) and see it verified, the name difference flagged", async () => {
  const { calls } = server();
  await renderWithApp(<AdminCampaignsPage />, { route: '/admin/campaigns', namespaces: ['campaign', 'payout'] });
  const row = await screen.findByTestId('admin-campaign');
  expect(within(row).getByRole('link', { name: 'Withdraw' })).toHaveAttribute('href', '/my-campaigns/c-1/withdraw');
  await userEvent.click(within(row).getByRole('button', { name: 'Payees' }));
  const dialog = await screen.findByRole('dialog', { name: 'Supplier payees: Books for Asha' });
  expect(await within(dialog).findByTestId('campaign-payee')).toHaveTextContent('Supplier: Sharma Book Depot');
  const form = within(dialog).getByRole('form', { name: 'Add a supplier payee' });
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  expect(await within(form).findByText("Enter the supplier's name")).toBeInTheDocument();
  await fill(within(form).getByRole('textbox', { name: /Supplier's name/ }), 'Kiran Stationers');
  await fill(within(form).getByRole('textbox', { name: /Account holder's name/ }), 'Kiran');
  await fill(within(form).getByRole('textbox', { name: /UPI id/ }), 'kiran@upi');
  await userEvent.click(within(form).getByRole('button', { name: 'Verify and add' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'VPA', holderName: 'Kiran', vpa: 'kiran@upi', supplierName: 'Kiran Stationers' }));
  await vi.waitFor(() => expect(within(dialog).getAllByTestId('campaign-payee')).toHaveLength(2));
  expect(within(dialog).getAllByTestId('campaign-payee')[1]).toHaveTextContent("The bank's name for this account is KIRAN PATEL, not Kiran Stationers.");
});
