import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import FaqPage from './faq-page';

// Never edited in the back office unless a test says otherwise: the built-in questions show.
beforeEach(() => {
  mockApi(() => json({ success: true, data: null }));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const topics = () => within(screen.getByRole('group', { name: 'Question topics' }));
const questions = () => within(screen.getByRole('region', { name: screen.getByRole('heading', { level: 2 }).textContent ?? '' }));

test('five category cards, Fundraiser\'s selected by default', async () => {
  await renderWithApp(<FaqPage />, { namespaces: ['faq'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' })).toBeInTheDocument();

  const cards = topics().getAllByRole('button');
  expect(cards.map((c) => c.querySelector('span:nth-of-type(2)')?.textContent)).toEqual(['Fundraiser\'s', 'Campaigns', 'Payments', 'Legal', 'Account']);
  expect(cards.filter((c) => c.getAttribute('aria-pressed') === 'true')).toEqual([cards[0]]);

  expect(screen.getByRole('heading', { level: 2, name: 'Fundraiser\'s' })).toBeInTheDocument();
  expect(questions().getByRole('button', { name: 'Who can start a fundraiser?' })).toBeInTheDocument();
  expect(questions().getAllByRole('heading', { level: 3 }).length).toBeGreaterThanOrEqual(4);
});

test('switching category shows its questions, and the fee answer states the fee facts', async () => {
  await renderWithApp(<FaqPage />, { namespaces: ['faq'] });
  await userEvent.click(await screen.findByRole('button', { name: /^Payments/ }));

  expect(screen.getByRole('button', { name: /^Payments/ })).toHaveAttribute('aria-pressed', 'true');
  expect(screen.getByRole('button', { name: /^Fundraiser's/ })).toHaveAttribute('aria-pressed', 'false');
  expect(screen.getByRole('heading', { level: 2, name: 'Payments' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Who can start a fundraiser?' })).not.toBeInTheDocument();

  const fee = questions().getByRole('button', { name: 'What is the platform fee?' });
  await userEvent.click(fee);
  expect(fee).toHaveAttribute('aria-expanded', 'true');
  const answer = screen.getByText(/about 5 to 8 percent of a donation/);
  await waitFor(() => expect(answer).toBeVisible());
  expect(answer).toHaveTextContent('never above 10 percent');

  await userEvent.click(questions().getByRole('button', { name: 'Can I get a refund of my donation?' }));
  await waitFor(() => expect(screen.getByText(/donations are not refundable/)).toBeVisible());
});

test('every category has at least four questions and the campaign facts are stated', async () => {
  await renderWithApp(<FaqPage />, { namespaces: ['faq'] });
  for (const name of ['Fundraiser\'s', 'Campaigns', 'Payments', 'Legal', 'Account']) {
    await userEvent.click(topics().getByRole('button', { name: new RegExp(`^${name}`) }));
    expect(questions().getAllByRole('heading', { level: 3 }).length, name).toBeGreaterThanOrEqual(4);
  }
  await userEvent.click(topics().getByRole('button', { name: /^Campaigns/ }));
  expect(screen.getByText(/Only PNG or JPEG images, each up to 5 MB/)).toBeInTheDocument();
  expect(screen.getByText(/the goal amount has no limit/)).toBeInTheDocument();
  await userEvent.click(topics().getByRole('button', { name: /^Fundraiser's/ }));
  expect(screen.getByText(/within 48 working hours/)).toBeInTheDocument();
});

test('renders in Hindi', async () => {
  await renderWithApp(<FaqPage />, { lang: 'hi', namespaces: ['faq'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'अक्सर पूछे जाने वाले प्रश्न' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: /^भुगतान/ }));
  await userEvent.click(screen.getByRole('button', { name: 'प्लेटफ़ॉर्म शुल्क कितना है?' }));
  await waitFor(() => expect(screen.getByText(/लगभग 5 से 8 प्रतिशत/)).toBeVisible());
});

test("the back office's FAQ replaces the built-in questions in the reader's language", async () => {
  const api = mockApi(() =>
    json({ success: true, data: { key: 'faq', content: { en: '<h1>Questions</h1><h2>Is it free?</h2><p>Yes.</p>', hi: '<h1>प्रश्न</h1><h2>क्या यह मुफ़्त है?</h2><p>हाँ।</p>' }, updatedAt: 1 } }),
  );
  await renderWithApp(<FaqPage />, { lang: 'hi', namespaces: ['faq'] });
  expect(await screen.findByRole('heading', { level: 2, name: 'क्या यह मुफ़्त है?' })).toBeInTheDocument();
  expect(screen.getByText('हाँ।')).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: /./ })).not.toBeInTheDocument();
  expect(api.calls.map((c) => c.path)).toContain('/static-page/faq');
});
