import { notifications } from '@mantine/notifications';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { ReplicaHandle } from '@/db/learner/replica';
import { ReplicaContext } from '@/db/learner/replica-context';
import { json, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import SetPreviewDialog, { previewAttempt } from './set-preview-dialog';

afterEach(() => {
  vi.restoreAllMocks();
  act(() => notifications.clean());
});

const set: QuestionSetDoc = {
  id: 'draft-set',
  l: 'Draft mock 3',
  mpq: 2,
  tm: 4,
  nm: 0.5,
  dur: 30,
  isM: true,
  free: false,
  inst: '',
  pts: 0,
  n: 2,
  sections: {},
  trans: {},
  total: 4,
  count: 2,
  updatedAt: 0,
  v: 1,
  tags: { s: [], e: [], c: [] },
  _deleted: false,
};
const detail: QsDetailDoc = {
  id: 'draft-set',
  isM: true,
  main: { q: ['q1', 'q2'], mpq: 2, tm: 4, nm: 0.5, o: 0 },
  sections: {},
  questions: [
    { id: 'q1', q: '<p>2 + 2 = ?</p>', ops: { a: '<p>3</p>', b: '<p>4</p>' }, qt: 'mcq1', d: '1', ca: ['b'], trans: {} },
    { id: 'q2', q: '<p>Capital of India?</p>', ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>' }, qt: 'mcq1', d: '1', ca: ['a'], trans: {} },
  ],
  v: 1,
  _deleted: false,
};

/** A replica whose every write path is a spy: the preview must touch none of them. */
function spyReplica() {
  const insert = vi.fn();
  const record = vi.fn();
  const findOne = vi.fn();
  const replica = {
    personId: 'editor',
    db: { test_summary: { insert, findOne, upsert: vi.fn(), incrementalUpsert: vi.fn() } },
    journal: { view: <A,>(a: A) => a, subscribe: () => () => undefined, getVersion: () => 0, record, flush: vi.fn() },
    syncNow: vi.fn(),
    close: vi.fn(),
  } as unknown as ReplicaHandle;
  return { replica, writes: [insert, record, findOne] };
}

test('a preview attempt is a fresh, unsubmitted attempt at the set', () => {
  const a = previewAttempt('draft-set', 1_000);
  expect(a).toMatchObject({ qsid: 'draft-set', st: 1_000, index: 0, answers: {}, status: 'IN_PROGRESS', submittedAt: null, sfs: 0 });
  expect(a.id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  expect(previewAttempt('draft-set').id).not.toBe(a.id);
});

test('the set runs in the real test screen in memory: answers and moves work, Submit only ends the preview', async () => {
  const api = mockApi((c) => (c.path === '/generic/getParticipantsCount' ? json({ success: true, p: 0 }) : json({ success: false, msg: 'unexpected' }, 500)));
  const { replica, writes } = spyReplica();
  const onClose = vi.fn();
  const user = userEvent.setup();
  await renderWithApp(
    <ReplicaContext.Provider value={replica}>
      <SetPreviewDialog set={set} detail={detail} onClose={onClose} />
    </ReplicaContext.Provider>,
    { namespaces: ['exam', 'authoring-bank'] },
  );
  expect(await screen.findByText('Preview: nothing is recorded')).toBeInTheDocument();
  expect(screen.getByText('Draft mock 3')).toBeInTheDocument();
  expect(screen.getByText('2 + 2 = ?')).toBeInTheDocument();

  // The answer is kept (the palette counts it) and Save & Next moves on.
  await user.click(screen.getByRole('radio', { name: '4' }));
  await user.click(screen.getByRole('button', { name: 'Save & Next' }));
  expect(await screen.findByText('Capital of India?')).toBeInTheDocument();
  expect(screen.getByTestId('question-number')).toHaveTextContent('Question 2');
  await user.click(screen.getByRole('button', { name: 'Prev' }));
  expect(await screen.findByText('2 + 2 = ?')).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: '4' })).toBeChecked();

  await user.click(screen.getAllByRole('button', { name: 'Submit' })[0]!);
  const summary = await screen.findByRole('dialog', { name: 'Exam summary' });
  await user.click(within(summary).getByRole('button', { name: 'Submit test' }));
  expect(await screen.findByText('Preview ended: nothing was recorded')).toBeInTheDocument();
  expect(onClose).toHaveBeenCalled();

  // Nothing went to the replica, and nothing was sent but the participants count the test screen reads.
  for (const w of writes) expect(w).not.toHaveBeenCalled();
  expect(api.calls.map((c) => `${c.method} ${c.path}`).filter((c) => c !== 'GET /generic/getParticipantsCount')).toEqual([]);
});

test('Hindi: the end of the preview is said in Hindi', async () => {
  mockApi(() => json({ success: true, p: 0 }));
  const onClose = vi.fn();
  const user = userEvent.setup();
  await renderWithApp(<SetPreviewDialog set={set} detail={detail} onClose={onClose} />, { lang: 'hi', namespaces: ['exam', 'authoring-bank'] });
  expect(await screen.findByText('पूर्वावलोकन: कुछ भी दर्ज नहीं होता')).toBeInTheDocument();
  await user.click(screen.getAllByRole('button', { name: 'जमा करें' })[0]!);
  const summary = await screen.findByRole('dialog', { name: 'परीक्षा सारांश' });
  await user.click(within(summary).getByRole('button', { name: 'टेस्ट जमा करें' }));
  expect(await screen.findByText('पूर्वावलोकन समाप्त: कुछ भी दर्ज नहीं हुआ')).toBeInTheDocument();
  expect(onClose).toHaveBeenCalled();
});
