import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { StaticPage } from '@pm/protocol/static-page';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import AboutPage from './about-page';

const page = (content: StaticPage['content']): StaticPage => ({ key: 'about', content, version: { en: content.en ? 1 : 0, hi: content.hi ? 1 : 0 }, updatedAt: 1 });

// Never edited in the back office unless a test says otherwise: the built-in text shows.
beforeEach(() => {
  mockApi(() => json({ success: true, data: null }));
});
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

test('shows the introduction and the five offers', async () => {
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
  const offers = within(screen.getByRole('region', { name: 'What Pariksha Mitra gives you' })).getAllByRole('listitem');
  expect(offers.map((li) => li.querySelector('p')?.textContent)).toEqual([
    'Guaranteed success',
    'Free online question papers',
    'Free practice exams',
    'Scholarship programs',
    'Opportunity to compete regularly',
  ]);
});

test('the toggle switches between mission and vision', async () => {
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });
  const panel = await screen.findByTestId('about-purpose-panel');
  expect(within(panel).getByRole('heading', { name: 'Our mission' })).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'Mission' })).toBeChecked();

  await userEvent.click(screen.getByRole('radio', { name: 'Vision' }));
  expect(screen.getByRole('radio', { name: 'Vision' })).toBeChecked();
  expect(within(panel).getByRole('heading', { name: 'Our vision' })).toBeInTheDocument();
  expect(within(panel).queryByRole('heading', { name: 'Our mission' })).not.toBeInTheDocument();
  expect(panel).toHaveTextContent(/depends on effort/);

  await userEvent.click(screen.getByRole('radio', { name: 'Mission' }));
  expect(within(panel).getByRole('heading', { name: 'Our mission' })).toBeInTheDocument();
});

test('renders in Hindi', async () => {
  await renderWithApp(<AboutPage />, { lang: 'hi', namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'हमारे बारे में' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('radio', { name: 'दृष्टि' }));
  expect(screen.getByRole('heading', { name: 'हमारी दृष्टि' })).toBeInTheDocument();
  expect(screen.getByText('सफलता की गारंटी')).toBeInTheDocument();
});

test("the back office's text replaces the built-in page, sanitised, without a token", async () => {
  setSession(learnerSession, false);
  const api = mockApi(() =>
    json({
      success: true,
      data: page({ en: '<h1>About the Trust</h1><p>Run by volunteers.</p><img src="x.png" onerror="window.hacked = 1"><script>window.hacked = 1</script>', hi: '<h1>ट्रस्ट के बारे में</h1>' }),
    }),
  );
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });

  expect(await screen.findByRole('heading', { level: 1, name: 'About the Trust' })).toBeInTheDocument();
  expect(screen.getByText('Run by volunteers.')).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'About Us' })).not.toBeInTheDocument();
  expect(document.querySelector('script')).toBeNull();
  expect(document.querySelector('img')?.hasAttribute('onerror')).toBe(false);
  const call = api.calls.find((c) => c.path === '/static-page/about');
  expect(call?.method).toBe('GET');
  expect(call?.headers.authorization).toBeUndefined();
});

test("a language without a text of its own shows its built-in page, never the other language's text", async () => {
  const api = mockApi(() => json({ success: true, data: page({ en: '<p>English only</p>', hi: '' }) }));
  await renderWithApp(<AboutPage />, { lang: 'hi', namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'हमारे बारे में' })).toBeInTheDocument();
  await waitFor(() => expect(api.calls).toHaveLength(1));
  await act(async () => {
    await new Promise((r) => setTimeout(r, 20));
  });
  expect(screen.queryByText('English only')).not.toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'हमारे बारे में' })).toBeInTheDocument();
});

test('the built-in text shows while the page loads, and stays when the request fails', async () => {
  let answer: (r: Response) => void = () => undefined;
  const api = mockApi(() => new Promise<Response>((resolve) => (answer = resolve)));
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
  await waitFor(() => expect(api.calls).toHaveLength(1));
  const failed = api.spy.mock.results[0]?.value as Promise<Response>;
  answer(json({ success: false, msg: 'Server busy' }, 503));
  await act(async () => {
    await failed;
    await new Promise((r) => setTimeout(r, 20));
  });
  expect(screen.getByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
  // Silent: a failure here is not the reader's business.
  expect(screen.queryByText('Server busy')).not.toBeInTheDocument();
});
