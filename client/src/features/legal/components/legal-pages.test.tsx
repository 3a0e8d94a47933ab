import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { COPYRIGHT_EMAIL } from '@/config/paths';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { LEGAL_LAST_UPDATED } from './legal-document';
import PrivacyPage from './privacy-page';
import TermsPage from './terms-page';

// Never edited in the back office unless a test says otherwise: the built-in texts show.
beforeEach(() => {
  mockApi(() => json({ success: true, data: null }));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const numberedSections = () => screen.getAllByRole('heading', { level: 2 }).filter((h) => /^\d+\. /.test(h.textContent ?? ''));

test('the terms have at least 17 numbered sections, a dated header and a contents list that links to each', async () => {
  await renderWithApp(<TermsPage />, { route: '/tnc', namespaces: ['legal'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'Terms & Conditions' })).toBeInTheDocument();

  const sections = numberedSections();
  expect(sections.length).toBeGreaterThanOrEqual(17);
  sections.forEach((h, i) => expect(h.textContent).toMatch(new RegExp(`^${i + 1}\\. `)));

  const time = screen.getByTestId('legal-last-updated').querySelector('time');
  expect(time).toHaveAttribute('datetime', LEGAL_LAST_UPDATED);
  expect(screen.getByTestId('legal-last-updated')).toHaveTextContent(/^Last updated: 22 November 2026$/);

  const toc = within(screen.getByRole('navigation', { name: 'Contents' })).getAllByRole('link');
  expect(toc).toHaveLength(sections.length);
  toc.forEach((a, i) => expect(a.getAttribute('href')).toBe(`/tnc#${sections[i]!.id}`));
});

test('the terms state the money, age and dispute rules, and the copyright address is interpolated', async () => {
  await renderWithApp(<TermsPage />, { route: '/tnc', namespaces: ['legal'] });
  await screen.findByRole('heading', { level: 1 });
  const text = document.body.textContent ?? '';
  expect(text).toContain('operated by Pariksha Mitra Charitable Trust');
  expect(text).toContain('a public charitable trust registered in India');
  expect(text).toContain('governed by the laws of India');
  expect(text).toContain('The Trust keeps 6 percent of each donation');
  expect(text).toContain('may change this share at any time without notice');
  expect(text).toContain('within 30 days');
  expect(text).toContain('15 days');
  expect(text).toContain('sole arbitrator');
  expect(text).toContain('New Delhi');
  expect(text).toContain('at least 18 years old');
  expect(text).toContain('Foreign Contribution (Regulation) Act, 2010');
  expect(text).toContain('double debit');
  expect(text).toContain('within one month');
  expect(text).toContain('marriage-bureau data service');
  expect(text).not.toContain('{{');

  const mail = screen.getAllByRole('link', { name: COPYRIGHT_EMAIL });
  expect(mail.length).toBeGreaterThan(0);
  expect(mail[0]).toHaveAttribute('href', `mailto:${COPYRIGHT_EMAIL}`);
});

test('a contents link moves to its section', async () => {
  const { router } = await renderWithApp(<TermsPage />, { route: '/tnc', namespaces: ['legal'] });
  const nav = within(await screen.findByRole('navigation', { name: 'Contents' }));
  await userEvent.click(nav.getByRole('link', { name: 'Intellectual property' }));
  expect(router.state.location.hash).toBe('#terms-section-13');
  expect(document.getElementById('terms-section-13')).toHaveTextContent('13. Intellectual property');
});

test('the privacy policy has at least 17 numbered sections', async () => {
  await renderWithApp(<PrivacyPage />, { route: '/privacy', namespaces: ['legal'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
  expect(numberedSections().length).toBeGreaterThanOrEqual(17);
  expect(screen.getAllByRole('link', { name: COPYRIGHT_EMAIL }).length).toBeGreaterThan(0);
});

test('both texts render in Hindi', async () => {
  await renderWithApp(<TermsPage />, { route: '/tnc', lang: 'hi', namespaces: ['legal'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'नियम और शर्तें' })).toBeInTheDocument();
  expect(numberedSections().length).toBeGreaterThanOrEqual(17);
  expect(screen.getByRole('heading', { level: 2, name: /^8\. ख़र्च के लिए रखा जाने वाला दान का हिस्सा$/ })).toBeInTheDocument();
  expect(document.body.textContent).toContain('ट्रस्ट हर दान का 6 प्रतिशत');
  expect(screen.getByTestId('legal-last-updated')).toHaveTextContent('अंतिम अद्यतन: 22 नवंबर 2026');
});

test("each page shows its own back-office text when there is one", async () => {
  const api = mockApi((c) =>
    json({ success: true, data: c.path === '/static-page/privacy' ? { key: 'privacy', content: { en: '<h1>Our privacy promise</h1>', hi: '' }, updatedAt: 1 } : null }),
  );
  await renderWithApp(<PrivacyPage />, { route: '/privacy', namespaces: ['legal'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'Our privacy promise' })).toBeInTheDocument();
  expect(screen.queryByRole('heading', { level: 1, name: 'Privacy Policy' })).not.toBeInTheDocument();
  expect(screen.queryByRole('navigation', { name: 'Contents' })).not.toBeInTheDocument();
  expect(api.calls.map((c) => c.path)).toEqual(['/static-page/privacy']);
});
