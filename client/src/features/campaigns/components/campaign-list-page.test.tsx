import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { cardFixture } from '../campaigns.fixture';
import CampaignListPage from './campaign-list-page';

afterEach(() => vi.restoreAllMocks());

const render = (route = '/campaigns', lang = 'en') => renderWithApp(<CampaignListPage />, { route, lang, namespaces: ['campaign'] });

function serveList(total = 2) {
  return mockApi(({ path }) =>
    path === '/campaigns'
      ? json({ success: true, total, data: [cardFixture(), cardFixture({ id: 'c-2', title: { en: 'Fees for Ravi', hi: '' }, cause: 'FEES', image: null, raised: 0, donors: 0 })] })
      : json({ success: false, msg: 'unexpected' }, 500),
  );
}

test('cards: image, title, cause, raised of the goal, donors and days left; each opens its campaign', async () => {
  const { calls } = serveList();
  await render();
  const cards = await screen.findAllByTestId('campaign-card');
  expect(cards).toHaveLength(2);
  const [first] = cards as [HTMLElement];
  expect(within(first).getByRole('link', { name: 'Books for Asha' })).toHaveAttribute('href', '/campaigns/c-1');
  expect(within(first).getByText('Books')).toBeInTheDocument();
  expect(within(first).getByTestId('campaign-raised')).toHaveTextContent('₹250 raised of ₹1,000');
  expect(within(first).getByText('2 donors')).toBeInTheDocument();
  expect(within(first).getByText(/days left/)).toBeInTheDocument();
  expect(within(first).getByRole('progressbar', { name: '25 percent of the goal raised' })).toBeInTheDocument();
  expect(calls[0]!.query.get('sort')).toBe('newest');
  expect(calls[0]!.query.get('page')).toBe('1');
});

test('search, cause and sort go to the server and into the address; a new filter starts at page 1', async () => {
  const { calls } = serveList(30);
  const { router } = await render('/campaigns?page=2');
  await screen.findAllByTestId('campaign-card');
  expect(calls.at(-1)!.query.get('page')).toBe('2');
  await userEvent.click(screen.getByRole('combobox', { name: 'Cause' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Fees', hidden: true }));
  await vi.waitFor(() => expect(calls.at(-1)!.query.get('cause')).toBe('FEES'));
  expect(calls.at(-1)!.query.get('page')).toBe('1');
  await userEvent.click(screen.getByRole('combobox', { name: 'Sort by' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Ending soon', hidden: true }));
  await vi.waitFor(() => expect(calls.at(-1)!.query.get('sort')).toBe('ending-soon'));
  await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'asha');
  await vi.waitFor(() => expect(calls.at(-1)!.query.get('q')).toBe('asha'));
  expect(router.state.location.search).toBe('?q=asha&cause=FEES&sort=ending-soon');
  // 30 campaigns, 12 a page: three pages.
  await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
  await vi.waitFor(() => expect(calls.at(-1)!.query.get('page')).toBe('3'));
});

test('in Hindi: the Hindi title, English where there is none', async () => {
  serveList();
  await render('/campaigns', 'hi');
  expect(await screen.findByRole('link', { name: 'आशा के लिए किताबें' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Fees for Ravi' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'अभियान' })).toBeInTheDocument();
  expect(screen.getByText('2 दानदाता')).toBeInTheDocument();
});

test('a failed list says so with Try again', async () => {
  mockApi(() => json({ success: false, msg: 'Server error' }, 500));
  await render();
  // Other alerts of the app (a notification) may be on screen: the one with this title.
  expect((await screen.findByText('Could not load the campaigns', { exact: false })).closest('[role="alert"]')).toHaveTextContent('Could not load the campaigns');
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
});
