import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import type { ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import { serverClock } from '@/db/sync/server-clock';
import { formatDate } from '@/lib/intl-format';
import { renderWithApp } from '@/testing/render';
import { detailOf, openFixture, questionSet } from './allowance.fixture';
import ExamListPage from './exam-list-page';
import { liveListPhase, nextPhaseChange } from './live-badge';

/*
 * The exam list marks live tests (docs/live-tests.md "On the exam list"), from what the device
 * holds: the `live` times of each set's questions document, so it is right offline (nothing is
 * fetched here: fetch is not even stubbed).
 */

const MIN = 60_000;
let open: ReplicaDatabase | null = null;
afterEach(async () => {
  await open?.remove();
  open = null;
});

test('the phase and its next change, by the rule the intro and the server start by', () => {
  const live = { start: 1000, win: 500, res: 5000 };
  expect([999, 1000, 1500, 1501, 4999, 5000].map((now) => liveListPhase(live, now))).toEqual(['early', 'open', 'open', 'closed', 'closed', 'results']);
  expect([0, 1000, 1500, 1501, 5000].map((now) => nextPhaseChange(live, now))).toEqual([1000, 1501, 1501, 5000, null]);
});

/** A sealed value of the right shape: the list never opens it. */
const sealed = { iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAA' };

/** Four live sets, one in each phase by the server's clock, and a set that is not live. */
async function renderLiveList(lang: string, startSoon = 60 * MIN) {
  const now = serverClock.now();
  const times = {
    'live-early': { start: now + startSoon, win: 15 * MIN, res: now + startSoon + 2 * 60 * MIN },
    'live-open': { start: now - 5 * MIN, win: 15 * MIN, res: now + 2 * 60 * MIN },
    'live-closed': { start: now - 30 * MIN, win: 15 * MIN, res: now + 90 * MIN },
    'live-done': { start: now - 3 * 60 * MIN, win: 15 * MIN, res: now - 60 * MIN },
  };
  const sets = [...Object.keys(times), 'plain'].map((id, i) => questionSet(id, `Set ${id}`, { free: true, pts: 10 - i }));
  const { db, replica } = await openFixture({ sets, withoutQuestions: Object.keys(times) });
  open = db;
  for (const [id, t] of Object.entries(times)) {
    const set = sets.find((s) => s.id === id)!;
    await db.qs_detail.insert({ ...detailOf(set), questions: [], live: { ...t, wk: sealed, paper: sealed } });
  }
  await renderWithApp(
    <ReplicaContext.Provider value={replica}>
      <ExamListPage />
    </ReplicaContext.Provider>,
    { route: '/exam-list', lang, namespaces: ['exam'] },
  );
  await screen.findByTestId('exam-card-plain', {}, { timeout: 5000 });
  return times;
}

const badgeOf = (id: string) => within(screen.getByTestId(`exam-card-${id}`)).queryByTestId('live-badge');

test('English: Live and when — the start, open now until the window’s end, the result time, results out', async () => {
  const times = await renderLiveList('en');
  expect(badgeOf('live-early')).toHaveTextContent(`LiveStarts ${formatDate(times['live-early'].start, 'en', 'dateTime')}`);
  expect(badgeOf('live-open')).toHaveTextContent(`LiveOpen now: start by ${formatDate(times['live-open'].start + 15 * MIN, 'en', 'time')}`);
  expect(badgeOf('live-closed')).toHaveTextContent(`LiveResults at ${formatDate(times['live-closed'].res, 'en', 'dateTime')}`);
  expect(badgeOf('live-done')).toHaveTextContent('LiveResults published');
  expect(badgeOf('plain')).toBeNull();
});

test('Hindi: the badge and its times in Hindi', async () => {
  const times = await renderLiveList('hi');
  expect(badgeOf('live-early')).toHaveTextContent(`लाइव${formatDate(times['live-early'].start, 'hi', 'dateTime')} पर शुरू`);
  expect(badgeOf('live-open')).toHaveTextContent(`लाइवअभी खुला है: ${formatDate(times['live-open'].start + 15 * MIN, 'hi', 'time')} तक शुरू करें`);
  expect(badgeOf('live-closed')).toHaveTextContent(`लाइवपरिणाम ${formatDate(times['live-closed'].res, 'hi', 'dateTime')} पर`);
  expect(badgeOf('live-done')).toHaveTextContent('लाइवपरिणाम प्रकाशित');
});

test('the badge turns to Open now when the start passes, with no tick of its own before', async () => {
  await renderLiveList('en', 1500);
  expect(badgeOf('live-early')).toHaveAttribute('data-phase', 'early');
  await waitFor(() => expect(badgeOf('live-early')).toHaveAttribute('data-phase', 'open'), { timeout: 4000 });
  expect(badgeOf('live-early')).toHaveTextContent('Open now');
});
