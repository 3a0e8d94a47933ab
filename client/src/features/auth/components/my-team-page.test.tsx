import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { TeamMember } from '@pm/protocol/person';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import MyTeamPage, { TEAM_PAGE_SIZE } from './my-team-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const member = (i: number, over: Partial<TeamMember> = {}): TeamMember => ({
  id: `p-${i}`,
  name: `Member ${i}`,
  mobile: `98******${String(i).padStart(2, '0')}`,
  joinedAt: Date.UTC(2026, 4, 1 + (i % 28)),
  depth: i < 3 ? 1 : 2,
  ...over,
});
const ALL = Array.from({ length: 23 }, (_, i) => member(i));

/** The server: pages of ALL, `q` finding a part of a name. */
function server() {
  return mockApi(({ path, query }) => {
    if (path !== '/person/team') return json({ success: false, msg: `unexpected ${path}` }, 500);
    const q = (query.get('q') ?? '').toLowerCase();
    const size = Number(query.get('size'));
    const page = Number(query.get('page'));
    const found = ALL.filter((m) => m.name.toLowerCase().includes(q));
    return json({ success: true, data: found.slice((page - 1) * size, page * size), total: found.length, team: ALL.length, direct: 3, size });
  });
}

test('the counts, the sentence that the team earns nothing, the list with masked mobiles, depth and join dates, and pages', async () => {
  setSession(learnerSession, false);
  const { calls } = server();
  await renderWithApp(<MyTeamPage />, { route: '/profile/team', namespaces: ['auth'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'My team' })).toBeInTheDocument();
  expect(await screen.findByTestId('team-size')).toHaveTextContent('23');
  expect(screen.getByTestId('team-direct')).toHaveTextContent('3');
  expect(screen.getByTestId('team-information-only')).toHaveTextContent('Your team is information only: it earns you nothing.');
  const cards = await screen.findAllByTestId('team-member');
  expect(cards).toHaveLength(TEAM_PAGE_SIZE);
  expect(cards[0]).toHaveTextContent('Member 0');
  expect(cards[0]).toHaveTextContent('98******00');
  expect(cards[0]).toHaveTextContent('Invited by you');
  expect(cards[0]).toHaveTextContent(/Joined on 1 May 2026/);
  expect(cards[5]).toHaveTextContent('Level 2');
  expect(screen.getByTestId('team-total')).toHaveTextContent('23 people');
  expect(Object.fromEntries(calls[0]!.query)).toEqual({ page: '1', size: String(TEAM_PAGE_SIZE) });

  await userEvent.click(screen.getByRole('button', { name: '2' }));
  await waitFor(() => expect(screen.getAllByTestId('team-member')).toHaveLength(3));
  expect(calls.at(-1)!.query.get('page')).toBe('2');
  expect(screen.getByRole('link', { name: 'Back to my profile' })).toHaveAttribute('href', '/profile');
});

test('search goes to the server and starts from the first page; nothing found says so', async () => {
  setSession(learnerSession, false);
  const { calls } = server();
  await renderWithApp(<MyTeamPage />, { route: '/profile/team', namespaces: ['auth'] });
  await screen.findAllByTestId('team-member');
  await userEvent.type(screen.getByRole('textbox', { name: /Search/ }), 'member 12');
  await waitFor(() => expect(screen.getAllByTestId('team-member')).toHaveLength(1));
  expect(calls.at(-1)!.query.get('q')).toBe('member 12');
  expect(calls.at(-1)!.query.get('page')).toBe('1');
  await userEvent.type(screen.getByRole('textbox', { name: /Search/ }), '9');
  expect(await screen.findByTestId('team-empty')).toHaveTextContent('No one in your team matches.');
});

test('in Hindi, with an empty team', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: true, data: [], total: 0, team: 0, direct: 0, size: TEAM_PAGE_SIZE }));
  await renderWithApp(<MyTeamPage />, { route: '/profile/team', lang: 'hi', namespaces: ['auth'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'मेरी टीम' })).toBeInTheDocument();
  expect(await screen.findByTestId('team-empty')).toHaveTextContent('अभी तक आपके ज़रिए कोई नहीं जुड़ा है।');
  expect(screen.getByTestId('team-information-only')).toHaveTextContent('केवल जानकारी के लिए');
  expect(within(screen.getByTestId('team-size').parentElement!).getByText('0')).toBeInTheDocument();
});
