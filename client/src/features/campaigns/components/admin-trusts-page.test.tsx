import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import AdminTrustsPage from './admin-trusts-page';

afterEach(() => vi.restoreAllMocks());

const DEMO = { id: 'demo-trust', code: 'PMT', name: { en: 'Pariksha Mitra Charitable Trust', hi: 'परीक्षा मित्र चैरिटेबल ट्रस्ट' }, address: 'Jaipur', registrationNo: 'R-1', pan: 'AAATP0000D', approval80g: 'G-1', fcraRegistered: false, shareBps: 600, createdAt: 1, updatedAt: 1 };

function server(trusts = [DEMO]) {
  return mockApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/trust') return json({ success: true, data: trusts });
    if (method === 'POST' && path === '/trust') return json({ success: true, msg: 'Trust saved', data: { ...(body as object), id: 't-2', createdAt: 2, updatedAt: 2 } }, 201);
    if (method === 'PUT' && path === '/trust/demo-trust') return json({ success: true, msg: 'Trust saved', data: { ...DEMO, ...(body as object) } });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

test('lists the trusts with what receipts print and the share kept; an edit sends the whole settings, the share in basis points', async () => {
  const { calls } = server();
  renderWithApp(<AdminTrustsPage />, { route: '/admin/trusts', namespaces: ['campaign'] });
  const card = await screen.findByTestId('trust');
  expect(card).toHaveTextContent('Pariksha Mitra Charitable Trust');
  expect(card).toHaveTextContent('PAN AAATP0000D · 80G G-1 · keeps 6 %');
  await userEvent.click(within(card).getByRole('button', { name: 'Edit' }));
  const form = await screen.findByRole('form', { name: 'Edit' });
  const share = within(form).getByRole('textbox', { name: /Share kept/ });
  await userEvent.clear(share);
  await userEvent.type(share, '7.5');
  await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ code: 'PMT', pan: 'AAATP0000D', shareBps: 750, fcraRegistered: false }));
});

test('the cap on the share of foreign contributions: shown for a registered trust, edited in percent, sent in basis points with only the settings', async () => {
  const registered = { ...DEMO, fcraRegistered: true, fcShareCapBps: 2000 };
  const { calls } = mockApi(({ method, path, body }) => {
    if (method === 'GET' && path === '/trust') return json({ success: true, data: [registered] });
    if (method === 'PUT' && path === '/trust/demo-trust') return json({ success: true, msg: 'Trust saved', data: { ...registered, ...(body as object) } });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
  renderWithApp(<AdminTrustsPage />, { route: '/admin/trusts', namespaces: ['campaign'] });
  const card = await screen.findByTestId('trust');
  expect(within(card).getByTestId('trust-fc-cap')).toHaveTextContent('keeps at most 20 % of a foreign contribution');
  await userEvent.click(within(card).getByRole('button', { name: 'Edit' }));
  const form = await screen.findByRole('form', { name: 'Edit' });
  const cap = within(form).getByRole('textbox', { name: /Most kept of a foreign contribution/ });
  expect(cap).toHaveValue('20 %');
  await userEvent.clear(cap);
  await userEvent.type(cap, '5');
  await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ fcShareCapBps: 500, shareBps: 600, fcraRegistered: true }));
  // The server's schema is strict: the trust's id and times are not settings.
  expect(Object.keys(calls.find((c) => c.method === 'PUT')!.body as object).sort()).toEqual(['address', 'approval80g', 'code', 'fcShareCapBps', 'fcraRegistered', 'name', 'pan', 'registrationNo', 'shareBps']);
});

test('with none set up it says campaigns wait for one, and a new trust is sent in capitals', async () => {
  const { calls } = server([]);
  renderWithApp(<AdminTrustsPage />, { route: '/admin/trusts', lang: 'hi', namespaces: ['campaign'] });
  expect(await screen.findByText('अभी कोई ट्रस्ट नहीं है: ट्रस्ट बनने तक अभियान का ड्राफ़्ट नहीं बन सकता।')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'ट्रस्ट जोड़ें' }));
  const form = await screen.findByRole('form', { name: 'ट्रस्ट जोड़ें' });
  const fill = async (label: RegExp, text: string) => userEvent.type(within(form).getByRole('textbox', { name: label }), text);
  await fill(/रसीद कोड/, 'svt');
  await fill(/नाम \(अंग्रेज़ी\)/, 'Seva Trust');
  await fill(/नाम \(हिंदी\)/, 'सेवा ट्रस्ट');
  await fill(/^पता/, 'Patna');
  await fill(/पंजीकरण संख्या/, 'BR-9');
  await fill(/^PAN/, 'aaats1234q');
  await fill(/80G/, '80G-9');
  await userEvent.click(within(form).getByRole('button', { name: 'सहेजें' }));
  await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ code: 'SVT', pan: 'AAATS1234Q', shareBps: 600 }));
});
