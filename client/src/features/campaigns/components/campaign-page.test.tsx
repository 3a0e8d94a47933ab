import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import type { Campaign } from '../api/types';
import { campaignFixture } from '../campaigns.fixture';
import CampaignPage from './campaign-page';

afterEach(() => vi.restoreAllMocks());

function serve(campaign: Campaign) {
  return mockApi(({ path }) => (path === `/campaigns/${campaign.id}` ? json({ success: true, data: campaign }) : json({ success: false, msg: 'Campaign not found' }, 404)));
}

/** The page under its route pattern (it reads :id), reached from a first address as the app does. */
const render = (id = 'c-1', lang = 'en') =>
  renderWithApp(<Navigate to={`/campaigns/${id}`} replace />, { route: '/start', lang, namespaces: ['campaign'], extraRoutes: [{ path: '/campaigns/:id', element: <CampaignPage /> }] });

test('the whole campaign: images, progress, the sanitised story, the need, updates, recent donations, the public ledger, Donate', async () => {
  serve(campaignFixture());
  await render();
  expect(await screen.findByRole('heading', { level: 1, name: 'Books for Asha' })).toBeInTheDocument();
  expect(screen.getByRole('img', { name: 'Books for Asha, image 1' })).toHaveAttribute('src', '/media/aaa.png');
  expect(screen.getByTestId('campaign-raised')).toHaveTextContent('₹250 raised of ₹1,000');
  // The story as rich text, without what the sanitiser removes.
  const story = screen.getByText(/Asha is in/).closest('div')!;
  expect(within(story).getByText('class 10').tagName).toBe('STRONG');
  expect(story.innerHTML).not.toContain('onerror');
  const need = screen.getByTestId('campaign-need');
  expect(within(need).getByText('Maths guide')).toBeInTheDocument();
  expect(within(need).getByText('From Sharma Book Depot')).toBeInTheDocument();
  expect(within(need).getAllByRole('row').at(-1)).toHaveTextContent('Goal₹1,000');
  expect(screen.getByTestId('campaign-update')).toHaveTextContent('Bought the maths guide.');
  const donations = screen.getByTestId('recent-donations');
  expect(donations).toHaveTextContent('Ravi');
  expect(donations).toHaveTextContent('Anonymous');
  const ledger = screen.getByTestId('campaign-ledger');
  expect(within(ledger).getAllByRole('row')[1]).toHaveTextContent('₹200₹12₹188');
  expect(within(ledger).getAllByRole('row').at(-1)).toHaveTextContent('Total₹250₹15₹235');
  expect(screen.getByRole('link', { name: 'Donate' })).toHaveAttribute('href', '/campaigns/c-1/donate');
  // Without the Web Share API (jsdom): Copy link, and WhatsApp.
  const share = screen.getByTestId('campaign-share');
  expect(within(share).getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
  expect(within(share).getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\?text=Books%20for%20Asha%20http/);
});

test.each([
  [{ status: 'PAUSED' as const }, 'The trust has paused this campaign. It takes no donations for now.'],
  [{ status: 'CLOSED' as const }, 'This campaign is closed and takes no more donations.'],
  [{ endsAt: Date.now() - 1000 }, 'This campaign has ended and takes no more donations.'],
])('no Donate when the campaign takes no donations (%o), but the reason', async (over, reason) => {
  serve(campaignFixture(over));
  await render();
  expect(await screen.findByTestId('donate-blocked')).toHaveTextContent(reason);
  expect(screen.queryByRole('link', { name: 'Donate' })).toBeNull();
});

test('the Web Share API where the browser has one', async () => {
  const share = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'share', { configurable: true, value: share });
  try {
    serve(campaignFixture());
    await render();
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ title: 'Books for Asha', url: `${window.location.origin}/campaigns/c-1` });
  } finally {
    delete (navigator as { share?: unknown }).share;
  }
});

test('in Hindi', async () => {
  serve(campaignFixture());
  await render('c-1', 'hi');
  expect(await screen.findByRole('heading', { level: 1, name: 'आशा के लिए किताबें' })).toBeInTheDocument();
  expect(screen.getByText('आशा दसवीं कक्षा में है।')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'दान करें' })).toBeInTheDocument();
  expect(screen.getByTestId('recent-donations')).toHaveTextContent('गुमनाम');
  // A need item without Hindi reads in English.
  expect(within(screen.getByTestId('campaign-need')).getByText('Science kit')).toBeInTheDocument();
});

test('a campaign the server does not show: its message', async () => {
  serve(campaignFixture());
  await render('nope');
  // Other alerts of the app (a notification) may be on screen: the one with this title.
  expect((await screen.findByText('Could not load the campaign', { exact: false })).closest('[role="alert"]')).toHaveTextContent('Could not load the campaign');
});

test('the public ledger names each donor (Anonymous in the reader\'s language) and shows a refund taken back out', async () => {
  const base = campaignFixture();
  const refund = { kind: 'REFUND', at: Date.now(), amount: -50_00, gross: -50_00, share: -3_00, net: -47_00, donor: 'Anonymous' };
  serve(campaignFixture({ ledger: [refund, ...base.ledger!] }));
  await render('c-1', 'hi');
  const rows = within(await screen.findByTestId('campaign-ledger')).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('गुमनाम को धनवापसी');
  expect(rows[1]).toHaveTextContent('-₹50-₹3-₹47');
  expect(rows[2]).toHaveTextContent('Ravi');
  expect(rows.at(-1)).toHaveTextContent('₹200₹12₹188');
});

test('a foreign contribution is marked as one in the public ledger, its donor named as any other', async () => {
  const foreign = { kind: 'DONATION', at: Date.now(), amount: 100_00, gross: 100_00, share: 5_00, net: 95_00, donor: 'Emily', foreign: true };
  serve(campaignFixture({ ledger: [foreign, ...campaignFixture().ledger!] }));
  await render('c-1');
  const rows = within(await screen.findByTestId('campaign-ledger')).getAllByRole('row');
  expect(rows[1]).toHaveTextContent('Emily');
  expect(within(rows[1]!).getByTestId('ledger-foreign')).toHaveTextContent('Foreign contribution');
  expect(within(rows[2]!).queryByTestId('ledger-foreign')).toBeNull();
});

test("its owner is offered Withdraw; a paid withdrawal is a row of the public ledger, what left the campaign", async () => {
  setSession({ ...learnerSession, id: 'p-ben', name: 'Asha Kumari' }, false);
  try {
    const base = campaignFixture();
    serve({ ...base, ledger: [{ kind: 'PAYOUT', at: Date.now(), amount: -100_00, gross: 0, share: 0, net: -100_00, donor: '' }, ...(base.ledger ?? [])] });
    await render();
    expect(await screen.findByTestId('owner-withdraw')).toHaveAttribute('href', '/my-campaigns/c-1/withdraw');
    const ledger = screen.getByTestId('campaign-ledger');
    expect(within(ledger).getByText('Withdrawal paid out')).toBeInTheDocument();
    expect(within(ledger).getAllByRole('row').at(-1)).toHaveTextContent('Total₹250₹15₹135');
  } finally {
    clearSession();
  }
});

test('nobody else is offered Withdraw', async () => {
  serve(campaignFixture());
  await render();
  expect(await screen.findByRole('heading', { level: 1, name: 'Books for Asha' })).toBeInTheDocument();
  expect(screen.queryByTestId('owner-withdraw')).toBeNull();
});
