import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { formatUnlockCode, newLiveKey, sealPaper, unlockCodeOf, wrapLiveKey } from '@pm/protocol/live-test';
import type { ReplicaDatabase } from '@/db/core/database';
import { keepLiveKey } from '@/db/learner/live-keys';
import { ReplicaContext } from '@/db/learner/replica-context';
import { CLOCK_SAMPLES, serverClock } from '@/db/sync/server-clock';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { detailOf, openFixture, PERSON, questionSet } from './allowance.fixture';
import ExamIntroPage from './exam-intro-page';

/*
 * The live test on the exam intro (docs/live-tests.md "Live tests", "The key schedule", "Unlock
 * codes"): a real replica in memory holding the set's sealed paper, sealed and wrapped by the
 * protocol's own code, the page and its panel as the app draws them, the network through the
 * API client with fetch stubbed.
 */

const MIN = 60_000;
const QSID = 'live-1';
const set = questionSet(QSID, 'All-India live mock', { free: true });

let open: ReplicaDatabase | null = null;

/**
 * Makes the app's server clock read `offset` ms ahead of this device, as the sync's responses
 * would (X-Server-Time): a round trip of 0 ms, enough of them that no earlier sample counts.
 */
function serverAhead(offset: number) {
  for (let i = 0; i < CLOCK_SAMPLES; i++) {
    const now = Date.now();
    serverClock.observe(now + offset, now, now);
  }
}

beforeEach(() => setSession({ ...learnerSession, id: PERSON }, false));
afterEach(async () => {
  serverAhead(0);
  vi.restoreAllMocks();
  clearSession();
  await open?.remove();
  open = null;
});

type Setup = {
  /** The start, ms from the server's now. */
  startIn: number;
  winMin?: number;
  /** The learner's `live_key` document: none (not registered), without the key, or with it. */
  keyDoc?: 'none' | 'locked' | 'released';
  lang?: string;
  /** The test's key as an earlier visit kept it from a typed code (else a fresh key). */
  withKept?: string;
};

/** The live set on a device as the pull leaves it (docs/live-tests.md "The key schedule"), and the exam intro on screen. */
async function renderLive({ startIn, winMin = 15, keyDoc = 'locked', lang = 'en', withKept }: Setup) {
  const key = withKept ?? newLiveKey();
  if (withKept) localStorage.setItem(`pm-live-key:${QSID}`, withKept);
  const start = serverClock.now() + startIn;
  const times = { start, win: winMin * MIN, res: start + 3 * 60 * MIN };
  const clear = detailOf(set);
  const { db, replica } = await openFixture({ sets: [set], withoutQuestions: [QSID] });
  open = db;
  await db.qs_detail.insert({ ...clear, questions: [], live: { ...times, wk: await wrapLiveKey(key, QSID), paper: await sealPaper(key, QSID, clear.questions) } });
  if (keyDoc !== 'none') await db.live_key.insert({ id: QSID, key: keyDoc === 'released' ? key : null, ...times, sms: true, updatedAt: serverClock.now() });
  const { router } = await renderWithApp(<div />, {
    lang,
    namespaces: ['exam', 'messages'],
    extraRoutes: [
      {
        path: '/take-exam/*',
        element: (
          <ReplicaContext.Provider value={replica}>
            <ExamIntroPage />
          </ReplicaContext.Provider>
        ),
      },
    ],
  });
  await act(() => router.navigate(`/take-exam/${QSID}`));
  const panel = await screen.findByTestId('live-test');
  return { db, key, times, panel };
}

/** Types a code into the panel and presses Open the paper. */
async function typeCode(panel: HTMLElement, code: string, button = 'Open the paper') {
  fireEvent.change(within(panel).getByTestId('live-code'), { target: { value: code } });
  fireEvent.click(within(panel).getByRole('button', { name: button }));
}

test('the countdown runs on the server-corrected clock, not the device’s', async () => {
  // The device's clock is three hours behind the server's; the test starts ten minutes from the server's now.
  serverAhead(3 * 60 * MIN);
  const { panel } = await renderLive({ startIn: 10 * MIN });
  // By the device's own clock it would be 3:10:00.
  expect(within(panel).getByTestId('live-countdown')).toHaveTextContent(/^Starts in (9:5\d|10:00)$/);
  expect(panel).toHaveTextContent('You are registered. The paper is on this device, locked until the start.');
  // Before the start there is nothing to type, and nothing to start.
  expect(within(panel).queryByTestId('live-code')).toBeNull();
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();
});

test('a countdown of more than an hour shows the hours', async () => {
  const { panel } = await renderLive({ startIn: 2 * 60 * MIN + 5 * MIN });
  expect(within(panel).getByTestId('live-countdown')).toHaveTextContent(/^Starts in 2:0[45]:\d\d$/);
});

test('registering: the request, then the panel says so', async () => {
  const { calls } = mockApi((call) =>
    call.path === '/live/register' ? json({ success: true, msg: 'You are registered for the live test' }) : json({ success: false, msg: 'Not found' }, 404),
  );
  const { panel } = await renderLive({ startIn: 60 * MIN, keyDoc: 'none' });
  expect(panel).not.toHaveTextContent('You are registered');
  fireEvent.click(within(panel).getByTestId('live-register'));
  await waitFor(() => expect(panel).toHaveTextContent('You are registered. The paper is on this device, locked until the start.'));
  expect(within(panel).queryByTestId('live-register')).toBeNull();
  expect(calls.filter((c) => c.path === '/live/register')).toEqual([expect.objectContaining({ method: 'POST', body: { qsid: QSID, sms: true, lang: 'en' } })]);
});

test('registering without the SMS: the choice goes with the request', async () => {
  const { calls } = mockApi((call) => (call.path === '/live/register' ? json({ success: true, msg: 'ok' }) : json({ success: false, msg: 'Not found' }, 404)));
  const { panel } = await renderLive({ startIn: 60 * MIN, keyDoc: 'none' });
  fireEvent.click(within(panel).getByRole('checkbox', { name: 'Send me the unlock code by SMS at the start' }));
  fireEvent.click(within(panel).getByTestId('live-register'));
  await waitFor(() => expect(panel).toHaveTextContent('You are registered'));
  expect(calls.find((c) => c.path === '/live/register')?.body).toEqual({ qsid: QSID, sms: false, lang: 'en' });
});

test('a refused registration shows the server’s message and stays unregistered', async () => {
  mockApi((call) => (call.path === '/live/register' ? json({ success: false, msg: 'This test needs a plan. Buy a plan to take it.' }, 402) : json({ success: false, msg: 'Not found' }, 404)));
  const { panel } = await renderLive({ startIn: 60 * MIN, keyDoc: 'none' });
  fireEvent.click(within(panel).getByTestId('live-register'));
  expect(await screen.findByText('This test needs a plan. Buy a plan to take it.')).toBeVisible();
  expect(panel).not.toHaveTextContent('You are registered');
  expect(within(panel).getByTestId('live-register')).toBeEnabled();
});

test('Hindi: the panel, the countdown and a refusal in Hindi', async () => {
  mockApi((call) => (call.path === '/live/register' ? json({ success: false, msg: 'qsid: registration for this live test has closed' }, 400) : json({ success: false, msg: 'Not found' }, 404)));
  const { panel } = await renderLive({ startIn: 10 * MIN, keyDoc: 'none', lang: 'hi' });
  expect(panel).toHaveTextContent('लाइव टेस्ट');
  expect(within(panel).getByTestId('live-countdown')).toHaveTextContent(/^(9:5\d|10:00) में शुरू$/);
  expect(within(panel).getByRole('checkbox', { name: 'शुरू होने पर अनलॉक कोड मुझे SMS से भेजें' })).toBeChecked();
  fireEvent.click(within(panel).getByRole('button', { name: 'पंजीकरण करें' }));
  expect(await screen.findByText('qsid: इस लाइव टेस्ट का पंजीकरण बंद हो चुका है')).toBeVisible();
});

test('the unlock code: a typing mistake, another test’s code, then the right code opens the paper', async () => {
  const { key, panel, db } = await renderLive({ startIn: -MIN });
  expect(panel).toHaveTextContent("The key has not reached this device. Type the unlock code (from the SMS, a friend's screen or a call) to open the paper.");
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();

  // Not a code at all: eleven characters, or a mistyped check character.
  const code = await unlockCodeOf(key, QSID);
  await typeCode(panel, code.slice(0, 11));
  expect(await within(panel).findByText('This is not an unlock code: check the 12 characters.')).toBeVisible();
  const last = code.at(-1) === '0' ? '1' : '0';
  await typeCode(panel, code.slice(0, 11) + last);
  expect(await within(panel).findByText('This is not an unlock code: check the 12 characters.')).toBeVisible();

  // A well-formed code of another test opens nothing.
  await typeCode(panel, formatUnlockCode(await unlockCodeOf(newLiveKey(), 'live-2')));
  expect(await within(panel).findByText('This code does not open this test.')).toBeVisible();
  expect(within(panel).queryByTestId('live-share-code')).toBeNull();
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();

  // The right code, typed as a person would (lower case, spaces): the paper opens, and the code is shown for a friend.
  await typeCode(panel, formatUnlockCode(code).toLowerCase().replace(/-/g, ' '));
  expect(await within(panel).findByTestId('live-share-code', {}, { timeout: 10_000 })).toHaveTextContent(
    `Unlock code for a friend whose phone is offline: ${formatUnlockCode(code)}`,
  );
  expect(within(panel).queryByTestId('live-code')).toBeNull();
  // The key is kept for this test only, so that the paper opens again on the next visit offline.
  expect(localStorage.getItem(`pm-live-key:${QSID}`)).toBe(key);
  const startButton = screen.getByRole('button', { name: 'Start Test' });
  await waitFor(() => expect(startButton).toBeEnabled());
  fireEvent.click(startButton);
  expect(await screen.findByText('2 + 2 = ?')).toBeVisible();
  await waitFor(async () => expect(await db.test_summary.count().exec()).toBe(1));
});

test('Hindi: the code’s messages in Hindi', async () => {
  const { panel } = await renderLive({ startIn: -MIN, lang: 'hi' });
  expect(panel).toHaveTextContent('कुंजी इस डिवाइस तक नहीं पहुँची।');
  await typeCode(panel, 'ABCD', 'प्रश्नपत्र खोलें');
  expect(await within(panel).findByText('यह अनलॉक कोड नहीं है: 12 अक्षर जाँचें।')).toBeVisible();
  await typeCode(panel, formatUnlockCode(await unlockCodeOf(newLiveKey(), 'live-2')), 'प्रश्नपत्र खोलें');
  expect(await within(panel).findByText('यह कोड इस टेस्ट को नहीं खोलता।')).toBeVisible();
});

test('the key arriving from replication opens the paper without a code', async () => {
  const { key, panel, db, times } = await renderLive({ startIn: -MIN });
  expect(within(panel).getByTestId('live-code')).toBeVisible();
  // The pull brings the learner's live_key document with the key (the server's clock passed the start).
  await db.live_key.upsert({ id: QSID, key, ...times, sms: true, updatedAt: serverClock.now() });
  expect(await within(panel).findByTestId('live-share-code', {}, { timeout: 10_000 })).toHaveTextContent(formatUnlockCode(await unlockCodeOf(key, QSID)));
  expect(within(panel).queryByTestId('live-code')).toBeNull();
  await waitFor(() => expect(screen.getByRole('button', { name: 'Start Test' })).toBeEnabled());
  // Nothing was typed, so nothing was kept in storage: the replica holds the key.
  expect(localStorage.getItem(`pm-live-key:${QSID}`)).toBeNull();
});

test('the key in the stream’s KEY event opens the paper before its document is pulled, and is kept', async () => {
  const { key, panel } = await renderLive({ startIn: -MIN });
  expect(within(panel).getByTestId('live-code')).toBeVisible();
  // What the replication does with a KEY event (db/learner/replication.ts; docs/live-tests.md "The key at scale").
  keepLiveKey(QSID, key);
  expect(await within(panel).findByTestId('live-share-code', {}, { timeout: 10_000 })).toHaveTextContent(formatUnlockCode(await unlockCodeOf(key, QSID)));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Start Test' })).toBeEnabled());
  // Kept, so that a reload before the pull (or offline) still opens it.
  expect(localStorage.getItem(`pm-live-key:${QSID}`)).toBe(key);
});

test('a code typed on an earlier visit opens the paper again, offline, without typing it again', async () => {
  // The key a typed code unwrapped is kept under the test's id (hooks/use-live-paper.ts).
  const key = newLiveKey();
  const { panel } = await renderLive({ startIn: -MIN, withKept: key });
  expect(await within(panel).findByTestId('live-share-code', {}, { timeout: 10_000 })).toHaveTextContent(formatUnlockCode(await unlockCodeOf(key, QSID)));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Start Test' })).toBeEnabled());
});

test('a key that does not open the paper leaves it closed', async () => {
  const { panel, db, times } = await renderLive({ startIn: -MIN });
  await db.live_key.upsert({ id: QSID, key: newLiveKey(), ...times, sms: true, updatedAt: serverClock.now() });
  // Still asked for a code; nothing to start.
  await new Promise((r) => setTimeout(r, 200));
  expect(within(panel).getByTestId('live-code')).toBeVisible();
  expect(within(panel).queryByTestId('live-share-code')).toBeNull();
  expect(screen.getByRole('button', { name: 'Start Test' })).toBeDisabled();
});

test('starting after the window is refused on the device, by the server’s clock', async () => {
  // By the device's clock the test has not started; by the server's, its window closed 5 minutes ago.
  serverAhead(60 * MIN);
  const { panel, db } = await renderLive({ startIn: -20 * MIN, keyDoc: 'released' });
  expect(panel).toHaveTextContent('The window to start this live test has closed.');
  expect(within(panel).queryByTestId('live-countdown')).toBeNull();
  expect(within(panel).queryByTestId('live-code')).toBeNull();
  expect(within(panel).queryByTestId('live-share-code')).toBeNull();
  // The paper is open (the key is there), but Start Test refuses, and no attempt is made.
  const startButton = screen.getByRole('button', { name: 'Start Test' });
  await waitFor(() => expect(startButton).toBeEnabled());
  fireEvent.click(startButton);
  expect(await screen.findByText('The window to start this live test has closed.', { selector: '.mantine-Notification-description' })).toBeVisible();
  expect(screen.queryByText('2 + 2 = ?')).toBeNull();
  expect(await db.test_summary.count().exec()).toBe(0);
});

test('Hindi: a closed window in Hindi', async () => {
  const { panel } = await renderLive({ startIn: -20 * MIN, keyDoc: 'released', lang: 'hi' });
  expect(panel).toHaveTextContent('इस लाइव टेस्ट को शुरू करने का समय समाप्त हो चुका है।');
});
