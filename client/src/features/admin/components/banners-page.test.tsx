import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Banner } from '@pm/protocol/banner';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import BannersPage from './banners-page';

const NS = ['admin', 'admin-content', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const slide: Banner = {
  id: 'b1',
  src: '/banners/week.png',
  headline: { en: 'Weekly tests', hi: 'साप्ताहिक टेस्ट' },
  text: { en: 'Every Sunday', hi: 'हर रविवार' },
  callToActionText: { en: 'Join', hi: 'जुड़ें' },
  linkToAction: '/exam-list',
  type: 'internal',
  active: false,
  order: 2,
};

function server(list: Banner[] = [slide]) {
  return mockApi((c: Call) => {
    if (c.path === '/banner/all') return json({ success: true, data: list });
    if (c.path === '/banner' && c.method === 'POST') return json({ success: true, msg: 'Banner saved successfully', data: { ...(c.body as object), id: 'b2' } }, 201);
    if (c.path === '/banner' && c.method === 'PUT') return json({ success: true, msg: 'Banner saved successfully', data: c.body });
    if (c.path === '/banner/b1' && c.method === 'DELETE') return json({ success: true, msg: 'Banner deleted successfully' });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

test('lists the slides with image, headline, state and order', async () => {
  server();
  await renderWithApp(<BannersPage />, { namespaces: NS });
  expect(await screen.findByText('Weekly tests')).toBeInTheDocument();
  expect(screen.getByText('Every Sunday')).toBeInTheDocument();
  expect(screen.getByText('Inactive')).toBeInTheDocument();
  expect(screen.getByText('Order 2')).toBeInTheDocument();
  expect(document.querySelector('img[src="/banners/week.png"]')).not.toBeNull();
});

test('the dialog checks the links and the headline in both languages, then POSTs the new slide', async () => {
  const api = server([]);
  const user = userEvent.setup();
  await renderWithApp(<BannersPage />, { namespaces: NS });
  expect(await screen.findByText('No slides yet.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add slide' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Add slide' }));

  await user.type(dialog.getByLabelText(/^Image address/), 'http://example.com/a.png');
  expect(dialog.getByLabelText(/^Image address/)).toHaveAccessibleDescription(/Give an https address or a site path starting with \//);
  await user.clear(dialog.getByLabelText(/^Image address/));
  await user.type(dialog.getByLabelText(/^Image address/), 'https://example.com/a.png');
  expect(dialog.getByLabelText(/^Image address/)).not.toBeInvalid();

  await user.type(dialog.getByLabelText(/^Headline \(English\)/), 'Free mock tests');
  expect(dialog.getByLabelText(/^Headline \(Hindi\)/)).toHaveAccessibleDescription('The headline is needed in English and Hindi');
  await user.type(dialog.getByLabelText(/^Headline \(Hindi\)/), 'मुफ़्त मॉक टेस्ट');
  await user.type(dialog.getByLabelText(/^Button text \(English\)/), 'Start');
  await user.type(dialog.getByLabelText(/^Button link/), '//evil.example');
  // An internal slide's link must be a path of this site (sync-protocol/src/banner.ts).
  expect(dialog.getByLabelText(/^Button link/)).toHaveAccessibleDescription(/A link of this site is a path such as \/plan/);
  expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await user.clear(dialog.getByLabelText(/^Button link/));
  await user.type(dialog.getByLabelText(/^Button link/), '/plan');
  await user.click(dialog.getByRole('button', { name: 'Save' }));

  expect(await screen.findByText('Banner saved successfully')).toBeInTheDocument();
  const post = api.calls.find((c) => c.method === 'POST');
  expect(post?.body).toEqual({
    src: 'https://example.com/a.png',
    headline: { en: 'Free mock tests', hi: 'मुफ़्त मॉक टेस्ट' },
    text: { en: '', hi: '' },
    callToActionText: { en: 'Start', hi: '' },
    linkToAction: '/plan',
    type: 'internal',
    active: true,
    order: 0,
  });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add slide' })).not.toBeInTheDocument());
});

test('editing PUTs the slide with its id; deleting asks "Confirm Delete" first', async () => {
  const api = server();
  const user = userEvent.setup();
  await renderWithApp(<BannersPage />, { namespaces: NS });

  await user.click(await screen.findByRole('button', { name: 'Edit Weekly tests' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Edit slide' }));
  expect(dialog.getByLabelText(/^Headline \(Hindi\)/)).toHaveValue('साप्ताहिक टेस्ट');
  await user.click(dialog.getByRole('switch', { name: 'Active' }));
  await user.click(dialog.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ ...slide, active: true }));

  await user.click(screen.getByRole('button', { name: 'Delete Weekly tests' }));
  const confirm = within(await screen.findByRole('dialog', { name: 'Confirm Delete' }));
  expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
  await user.click(confirm.getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Banner deleted successfully')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/banner/b1');
});
