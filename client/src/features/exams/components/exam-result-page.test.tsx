import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ExamResultDoc, ResultQuestion } from '@pm/protocol/sync/exam-result';
import type { ReplicaDatabase } from '@/db/core/database';
import { ReplicaContext } from '@/db/learner/replica-context';
import { clearSession, setSession } from '@/lib/session';
import { learnerSession } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { rememberAttemptLanguage } from '../lib/attempt-language';
import { receiptHash, shortReceipt } from '@pm/protocol/receipt';
import { keepReceipt } from '@/db/attempts/receipts';
import { attemptAt, openFixture, PERSON, questionSet } from './allowance.fixture';
import ExamResultPage from './exam-result-page';

/*
 * docs/exams.md "The result page": the result page shows every option as rich text (images and formulas), marks the
 * learner's and the correct options in words, shows the questions in the language of the attempt
 * (English with a note where a translation is missing), says a subjective answer awaits
 * evaluation, and prints.
 */

let open: ReplicaDatabase | null = null;
beforeEach(() => {
  localStorage.clear();
  setSession({ ...learnerSession, id: PERSON }, false);
});
afterEach(async () => {
  vi.restoreAllMocks();
  clearSession();
  await open?.remove();
  open = null;
});

const FORMULA = '<span class="katex"><span class="katex-html" aria-hidden="true"><span class="mord mathnormal">x</span><span class="msupsub">2</span></span></span>';
const img = (name: string) => `<img src="/media/${name}.png" alt="${name}">`;

const QUESTIONS: ResultQuestion[] = [
  {
    id: 'q1',
    q: `<p>Which figure shows ${FORMULA}?</p>`,
    ops: { a: `<p>${img('figure-a')} Parabola ${FORMULA}</p>`, b: `<p>${img('figure-b')} Line</p>`, c: '<p>Circle</p>' },
    qt: 'mcq1',
    d: '3',
    ca: ['b'],
    trans: { hi: { q: `<p>कौन-सा चित्र ${FORMULA} दिखाता है?</p>`, ops: { a: `<p>${img('figure-a')} परवलय ${FORMULA}</p>`, b: `<p>${img('figure-b')} रेखा</p>`, c: '<p>वृत्त</p>' }, ca: ['b'] } },
  },
  { id: 'q2', q: '<p>Prime numbers?</p>', ops: { a: '<p>2</p>', b: '<p>4</p>', c: '<p>5</p>' }, qt: 'mcq2', d: '2', ca: ['a', 'c'], trans: {} },
  { id: 'q3', q: '<p>Explain photosynthesis.</p>', ops: {}, qt: 's', d: '4', ca: ['Plants make food from light.'], trans: {} },
  { id: 'q4', q: '<p>Capital of India is ____.</p>', ops: {}, qt: 'f', d: '1', ca: ['New Delhi', 'Delhi'], trans: { hi: { q: '<p>भारत की राजधानी ____ है।</p>', ops: {}, ca: ['नई दिल्ली'] } } },
];

const set = questionSet('mock-r', 'Figures and formulas', { isM: true, n: 4, total: 4, count: 4 });
const ATTEMPT = 'attempt-result-1';

function resultDoc(receipt: string | null = null): Omit<ExamResultDoc, '_deleted'> {
  return {
    id: `r-${ATTEMPT}`,
    qsid: set.id,
    attemptId: ATTEMPT,
    marks: { wos: 1 },
    outOf: { wos: 4 },
    userRes: { wos: { q1: { ua: 'a', mg: 0 }, q2: { ua: ['a', 'c'], mg: 1 }, q3: { ua: 'Light and water make sugar.', mg: null }, q4: { ua: null, mg: 0 } } },
    totalMarks: 1,
    total: 4,
    questions: QUESTIONS,
    late: false,
    practice: false,
    pending: 1,
    submittedAt: Date.now() - 1000,
    elapsed: 60_000,
    et: 0,
    receipt,
  };
}

const attempt = attemptAt(set.id, ATTEMPT, {
  answers: {
    q1: { ua: 'a', status: 'ANSWERED', t: 4000 },
    q2: { ua: ['a', 'c'], status: 'ANSWERED', t: 3000 },
    q3: { ua: 'Light and water make sugar.', status: 'ANSWERED', t: 9000 },
  },
});

/**
 * `receipt`: the device keeps its receipt of the attempt (as the test screen does at submit), and
 * the server's result carries `server` (the device's own hash when 'same').
 */
async function renderResult(lang = 'en', receipt?: { server: 'same' | string | null; deviceAt: number }) {
  const { db, replica } = await openFixture({ sets: [set], attempts: [attempt] });
  open = db;
  let server: string | null = null;
  if (receipt) {
    const kept = await keepReceipt(db, attempt, { setLabel: set.l, deviceAt: receipt.deviceAt });
    server = receipt.server === 'same' ? kept.hash : receipt.server;
  }
  // The device holds the set's questions without answers (a mock test) and the scored result.
  await db.qs_detail.upsert({
    id: set.id,
    isM: true,
    main: { q: ['q1', 'q2', 'q3', 'q4'], mpq: 1, tm: 4, nm: 0, o: 0 },
    sections: {},
    questions: QUESTIONS.map(({ ca: _ca, trans, ...q }) => ({ ...q, trans: Object.fromEntries(Object.entries(trans).map(([l, { ca: _c, ...tr }]) => [l, tr])) })),
    v: 1,
  });
  await db.exam_result.insert(resultDoc(server));
  const { router } = await renderWithApp(<div />, {
    lang,
    namespaces: ['exam', 'receipt'],
    extraRoutes: [
      {
        path: '/exam-result/:qsid/:isSubmitAns',
        element: (
          <ReplicaContext.Provider value={replica}>
            <ExamResultPage />
          </ReplicaContext.Provider>
        ),
      },
    ],
  });
  await act(() => router.navigate(`/exam-result/${set.id}/false`));
  return await screen.findByTestId('outcome-q1');
}

test('every option as rich text with its image and formula; the chosen and the correct options marked in words', async () => {
  const q1 = await renderResult();
  const options = within(q1).getAllByRole('listitem');
  expect(options).toHaveLength(3);
  expect(within(q1).getByRole('list', { name: 'Options' })).toBeInTheDocument();
  // Images and formulas of the options, not stripped to text.
  expect(within(options[0]!).getByRole('img', { name: 'figure-a' })).toHaveAttribute('src', '/media/figure-a.png');
  expect(options[0]!.querySelector('.katex')).not.toBeNull();
  expect(within(options[1]!).getByRole('img', { name: 'figure-b' })).toBeInTheDocument();
  expect(q1.querySelector('.katex')).not.toBeNull();

  // a chosen (wrong), b correct, c neither: said in text, not by colour alone.
  expect(options[0]).toHaveTextContent(/^A\..*Parabola.*Your answer$/);
  expect(within(options[0]!).queryByTestId('correct-mark')).toBeNull();
  expect(options[1]).toHaveTextContent(/^B\..*Line.*Correct answer$/);
  expect(within(options[1]!).queryByTestId('chosen-mark')).toBeNull();
  expect(options[2]).toHaveTextContent(/^C\.Circle$/);
  expect(within(q1).getByTestId('verdict')).toHaveTextContent('Incorrect');
  expect(within(q1).getByTestId('your-answer')).toHaveTextContent('A');
  expect(within(q1).getByTestId('correct-answer')).toHaveTextContent('B');

  // Multiple choice answered right: each chosen option carries both marks.
  const q2 = screen.getByTestId('outcome-q2');
  expect(within(q2).getByTestId('option-a')).toHaveTextContent(/Your answer.*Correct answer/);
  expect(within(q2).getByTestId('option-b')).not.toHaveTextContent(/answer/);
  expect(within(q2).getByTestId('your-answer')).toHaveTextContent('A, C');
  expect(within(q2).getByTestId('verdict')).toHaveTextContent('Correct');
});

test('a subjective answer awaiting evaluation says so; a blank fill-in shows the accepted answers', async () => {
  await renderResult();
  const q3 = screen.getByTestId('outcome-q3');
  expect(within(q3).getByTestId('verdict')).toHaveTextContent('Awaiting evaluation');
  expect(within(q3).getByRole('note')).toHaveTextContent('This answer awaits evaluation by an editor');
  expect(within(q3).getByTestId('your-answer')).toHaveTextContent('Light and water make sugar.');
  expect(within(q3).getByTestId('correct-answer')).toHaveTextContent('Plants make food from light.');
  expect(within(q3).getByTestId('marks-gained')).toHaveTextContent('Marks: —');
  expect(screen.getByText('1 answer awaiting evaluation')).toBeInTheDocument();

  const q4 = screen.getByTestId('outcome-q4');
  expect(within(q4).getByTestId('verdict')).toHaveTextContent('Unanswered');
  expect(within(q4).getByTestId('your-answer')).toHaveTextContent('Not answered');
  expect(within(q4).getByTestId('correct-answer')).toHaveTextContent('New Delhi / Delhi');
});

test('in the language of the attempt: Hindi questions, English with a note where Hindi is missing; the picker switches', async () => {
  rememberAttemptLanguage(ATTEMPT, 'hi');
  const q1 = await renderResult('en');
  expect(q1).toHaveTextContent('कौन-सा चित्र');
  expect(within(q1).getByTestId('option-b')).toHaveTextContent('रेखा');
  expect(within(q1).getByRole('img', { name: 'figure-b' })).toBeInTheDocument();
  expect(within(q1).queryByRole('note')).toBeNull();
  // No Hindi translation: English, and a note says why.
  const q2 = screen.getByTestId('outcome-q2');
  expect(q2).toHaveTextContent('Prime numbers?');
  expect(within(q2).getByTestId('english-fallback')).toHaveTextContent('This question has no translation in the language you chose yet, so it is shown in English.');
  expect(within(screen.getByTestId('outcome-q4')).getByTestId('correct-answer')).toHaveTextContent('नई दिल्ली');

  await userEvent.setup().click(screen.getByRole('radio', { name: 'English' }));
  expect(screen.getByTestId('outcome-q1')).toHaveTextContent('Which figure shows');
  expect(within(screen.getByTestId('outcome-q2')).queryByTestId('english-fallback')).toBeNull();
});

test('Hindi interface: marks, notes and the Print button in Hindi; Print prints', async () => {
  const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
  const q1 = await renderResult('hi');
  expect(within(q1).getByTestId('option-a')).toHaveTextContent('आपका उत्तर');
  expect(within(q1).getByTestId('option-b')).toHaveTextContent('सही उत्तर');
  expect(within(q1).getByTestId('verdict')).toHaveTextContent('गलत');
  expect(within(screen.getByTestId('outcome-q3')).getByTestId('pending-note')).toHaveTextContent('इस उत्तर का मूल्यांकन एक संपादक करेंगे');
  await userEvent.setup().click(screen.getByRole('button', { name: 'प्रिंट करें' }));
  expect(print).toHaveBeenCalledOnce();
});

test('a collapsed part stays in the page for the printed view', async () => {
  await renderResult();
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Main/ }));
  // Hidden on screen, still there to print (the print sheet shows the panel).
  expect(screen.getByTestId('outcome-q1')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: /Main/ })).toHaveAttribute('aria-expanded', 'false');
});

test('the receipt kept at submit: set, both clocks, the code as text and QR, and the server’s code matching', async () => {
  const deviceAt = Date.now() - 5000;
  await renderResult('en', { server: 'same', deviceAt });
  const card = screen.getByTestId('submission-receipt');
  const code = shortReceipt(await receiptHash(attempt));
  expect(within(card).getByRole('heading', { name: 'Submission receipt' })).toBeInTheDocument();
  expect(within(card).getByTestId('receipt-set')).toHaveTextContent('Figures and formulas');
  const format = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'medium' });
  expect(within(card).getByTestId('receipt-device-time')).toHaveTextContent(format.format(deviceAt));
  expect(within(card).getByTestId('receipt-server-time')).toHaveTextContent(format.format(attempt.submittedAt!));
  expect(within(card).getByTestId('receipt-code')).toHaveTextContent(code);
  expect(within(card).getByTestId('server-receipt-code')).toHaveTextContent(code);
  expect(within(card).getByRole('img', { name: `QR code of receipt ${code}` }).querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
  expect(within(card).getByTestId('receipt-check')).toHaveAttribute('data-state', 'match');
  expect(within(card).getByTestId('receipt-check')).toHaveTextContent('Matches: the server holds exactly what this device submitted.');
});

test('a server code that differs from the device’s is said to differ, in Hindi too', async () => {
  await renderResult('hi', { server: 'e'.repeat(64), deviceAt: Date.now() });
  const card = screen.getByTestId('submission-receipt');
  expect(within(card).getByRole('heading', { name: 'जमा करने की रसीद' })).toBeInTheDocument();
  expect(within(card).getByTestId('server-receipt-code')).toHaveTextContent(shortReceipt('e'.repeat(64)));
  expect(within(card).getByTestId('receipt-check')).toHaveAttribute('data-state', 'mismatch');
  expect(within(card).getByTestId('receipt-check')).toHaveTextContent('मेल नहीं खाता');
});

test('a result from before receipts, with no receipt on the device, shows no receipt', async () => {
  await renderResult('en');
  expect(screen.queryByTestId('submission-receipt')).toBeNull();
});

/**
 * A live test's attempt before its result time (docs/live-tests.md "Live tests"): the paper on
 * the device is sealed and carries no answers, so no marks are worked out here — the page says
 * when results open instead.
 */
async function renderLivePending(lang: string) {
  const live = questionSet('live-r', 'Live practice', { isM: false, free: true });
  const res = Date.now() + 60 * 60_000;
  const submitted = attemptAt(live.id, 'attempt-live-1');
  const { db, replica } = await openFixture({ sets: [live], attempts: [submitted], withoutQuestions: [live.id] });
  open = db;
  // The receipt the test screen kept at submit.
  await keepReceipt(db, submitted, { setLabel: live.l, deviceAt: Date.now() });
  const sealed = { iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAAAAAAAAAAAAAAAAAAAA' };
  await db.qs_detail.insert({ id: live.id, isM: false, main: { q: ['q1', 'q2'], mpq: 1, tm: 2, nm: 0, o: 0 }, sections: {}, questions: [], v: 1, live: { start: res - 2 * 60 * 60_000, win: 15 * 60_000, res, wk: sealed, paper: sealed } });
  const { router } = await renderWithApp(<div />, {
    lang,
    namespaces: ['exam', 'receipt'],
    extraRoutes: [
      {
        path: '/exam-result/:qsid/:isSubmitAns',
        element: (
          <ReplicaContext.Provider value={replica}>
            <ExamResultPage />
          </ReplicaContext.Provider>
        ),
      },
    ],
  });
  await act(() => router.navigate(`/exam-result/${live.id}/false`));
  return { pending: await screen.findByTestId('result-pending'), res };
}

test('a live test before its result time: no marks worked out on the device, the time results open instead', async () => {
  const { pending, res } = await renderLivePending('en');
  const at = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(res);
  expect(pending).toHaveTextContent(`Your test is submitted. This live test's results, answers and ranks open for everyone at ${at}; yours then appears here.`);
  expect(screen.queryByTestId('total-marks')).toBeNull();
  expect(screen.queryByTestId('rank-provisional')).toBeNull();
  // The receipt's check waits for the result the server holds back: it says until when.
  expect(await screen.findByTestId('receipt-check')).toHaveTextContent(`Checked against the server's copy when results open at ${at}: the server holds back every result of this live test until then.`);
});

test('a live test before its result time, in Hindi', async () => {
  const { pending } = await renderLivePending('hi');
  expect(pending).toHaveTextContent('इस लाइव टेस्ट के परिणाम, उत्तर और रैंक');
  expect(screen.queryByTestId('total-marks')).toBeNull();
});
