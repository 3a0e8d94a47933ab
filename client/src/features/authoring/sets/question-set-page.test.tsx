import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import type { QuestionSetSave, QuestionSetView } from '@pm/protocol/question-set';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { PreviewProvider, type Previews } from '@/components/preview-context';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { questionView, setView, TAGS } from '../list/test-data';
import QuestionSetPage from './question-set-page';

const NS = ['authoring-bank', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const NOW_MIN = Math.floor(Date.now() / 60_000);
const SETS: QuestionSetView[] = [
  setView('s1', { l: 'Weekly test 1', taken: 3, version: 2, q: ['q1'], sections: { Reasoning: { ss: false, q: ['q2'], mpq: 2, tm: 2, nm: 0.5, o: 0 } } }),
  setView('s2', { l: 'Algebra drill', draft: true, published: false, isM: false, free: true }),
  setView('s3', { l: 'Next week', published: false, pts: NOW_MIN + 60 * 24 }),
];
const BANK = ['q1', 'q2', 'q3', 'q4'].map((id) => questionView(id));

type Handler = (c: Call) => Response | undefined;
/** The question-set API as the screens use it; `save` answers PATCH updateQuestionSet. */
function server({ save, sets = SETS }: { save?: (body: QuestionSetSave, n: number) => Response; sets?: QuestionSetView[] } = {}, extra?: Handler) {
  let saves = 0;
  return mockApi((c: Call) => {
    const answer = extra?.(c);
    if (answer) return answer;
    if (c.path === '/tag') return json({ success: true, data: TAGS[c.query.get('key') as keyof typeof TAGS] ?? [] });
    if (c.path === '/question/getQuestionSetList') return json({ success: true, data: sets });
    if (c.path.startsWith('/question/getQuestionSet/')) {
      const set = sets.find((s) => s.id === c.path.split('/').pop());
      return set ? json({ success: true, data: set }) : json({ success: false, msg: MSG.questionSetNotFound }, 404);
    }
    if (c.path === '/question/updateQuestionSet') {
      saves += 1;
      if (save) return save(c.body as QuestionSetSave, saves);
      const body = c.body as QuestionSetSave;
      return json({ success: true, id: body.id ?? 'new-set', msg: body.id ? MSG.questionSetUpdated : MSG.questionSetCreated, data: { ...setView(body.id ?? 'new-set'), ...body } });
    }
    if (c.path.startsWith('/question/deleteQuestionSet/')) return json({ success: true, msg: MSG.questionSetDeleted });
    if (c.path === '/question/getQuestionsCount') return json({ success: true, count: BANK.length });
    if (c.path === '/question') {
      const qids = c.query.get('qids');
      return json({ success: true, data: qids ? BANK.filter((q) => qids.split(',').includes(q.id)) : BANK });
    }
    return json({ success: false, msg: `unexpected ${c.method} ${c.path}` }, 500);
  });
}

/** The page on its two routes, as app/router.tsx mounts it (with the previews lent by exams). */
async function open(path: string, { lang = 'en', previews }: { lang?: string; previews?: Previews } = {}) {
  const page = (el: ReactElement) => (previews ? <PreviewProvider value={previews}>{el}</PreviewProvider> : el);
  const view = await renderWithApp(page(<QuestionSetPage />), {
    route: '/question-set',
    lang,
    namespaces: NS,
    extraRoutes: [{ path: '/question-set/:id', element: page(<QuestionSetPage />) }],
  });
  if (path !== '/question-set') await act(() => view.router.navigate(path));
  return view;
}

const patches = (api: { calls: Call[] }) => api.calls.filter((c) => c.path === '/question/updateQuestionSet').map((c) => c.body as QuestionSetSave);

test('the list tab: every set with its state, version and takers; delete asks first', async () => {
  const api = server();
  const user = userEvent.setup();
  await open('/question-set');
  expect(screen.getByRole('tab', { name: 'Question Set List' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: 'Sections' })).toBeDisabled();
  const table = await screen.findByRole('table', { name: 'Question Set List' });
  const row = (label: string) => within(table).getByRole('row', { name: new RegExp(label) });
  expect(within(row('Weekly test 1')).getByText('Published')).toBeInTheDocument();
  expect(within(row('Weekly test 1')).getByText('Mock test')).toBeInTheDocument();
  // Main 1 × 1 + Reasoning 1 × 2 (questions × marks, docs/authoring.md); two questions; taken 3 times, version 2.
  expect(within(row('Weekly test 1')).getAllByRole('cell').map((c) => c.textContent)).toEqual(
    expect.arrayContaining(['2', '3', '60 min', '3']),
  );
  expect(within(row('Algebra drill')).getByText('Draft')).toBeInTheDocument();
  expect(within(row('Algebra drill')).getByText('Practice')).toBeInTheDocument();
  // A set free for everyone says so (docs/payments.md "Without a plan").
  expect(within(row('Algebra drill')).getByText('Free')).toBeInTheDocument();
  expect(within(row('Weekly test 1')).queryByText('Free')).toBeNull();
  expect(within(row('Next week')).getByText('Scheduled')).toBeInTheDocument();

  await user.click(within(row('Algebra drill')).getByRole('button', { name: 'Delete' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete this question set?' });
  expect(dialog).toHaveTextContent('“Algebra drill” is removed');
  expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Question set deleted successfully')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/question/deleteQuestionSet/s2');
});

test('Edit opens the set on the Sections tab with its fields', async () => {
  server();
  const user = userEvent.setup();
  const { router } = await open('/question-set');
  const table = await screen.findByRole('table', { name: 'Question Set List' });
  await user.click(within(within(table).getByRole('row', { name: /Weekly test 1/ })).getByRole('button', { name: 'Edit' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/question-set/s1'));
  expect(await screen.findByRole('textbox', { name: 'Label' })).toHaveValue('Weekly test 1');
  expect(screen.getByRole('tab', { name: 'Sections' })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('textbox', { name: 'Marks per question' })).toHaveValue('1');
  expect(screen.getByRole('textbox', { name: 'Total marks' })).toHaveValue('1');
  expect(screen.getByRole('textbox', { name: 'Negative marking' })).toHaveValue('0.25');
  expect(screen.getByRole('textbox', { name: 'Duration (minutes)' })).toHaveValue('60');
  expect(screen.getByRole('checkbox', { name: 'Mock test' })).toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Free for everyone' })).not.toBeChecked();
  expect(screen.getByText('Learners without a plan may take it; it uses no allowance')).toBeInTheDocument();
  expect(screen.getByRole('checkbox', { name: 'Hindi' })).toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Marathi' })).not.toBeChecked();
  expect(screen.getByRole('button', { name: 'Publish date and time' })).toBeInTheDocument();
  expect(screen.getByRole('region', { name: 'Reasoning' })).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Negative marks (Reasoning)' })).toHaveValue('0.5');
  // Learners took it: the editor is told before changing it.
  expect(screen.getByText('Learners have taken this set 3 times')).toBeInTheDocument();
});

test('leaving unsaved changes for another set asks first', async () => {
  server();
  const user = userEvent.setup();
  const { router } = await open('/question-set/s1');
  const label = await screen.findByRole('textbox', { name: 'Label' });
  await user.type(label, ' (revised)');
  expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
  await user.click(screen.getByRole('tab', { name: 'Question Set List' }));
  const table = await screen.findByRole('table', { name: 'Question Set List' });
  await user.click(within(within(table).getByRole('row', { name: /Algebra drill/ })).getByRole('button', { name: 'Edit' }));
  const dialog = await screen.findByRole('dialog', { name: 'Discard Changes?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(router.state.location.pathname).toBe('/question-set/s1');
  await user.click(screen.getByRole('button', { name: 'New question set' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Discard Changes?' })).getByRole('button', { name: 'Discard' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/question-set/new'));
  expect(await screen.findByRole('textbox', { name: 'Label' })).toHaveValue('');
  // An untouched new form leaves without asking.
  await user.click(screen.getByRole('tab', { name: 'Question Set List' }));
  await user.click(within(within(await screen.findByRole('table', { name: 'Question Set List' })).getByRole('row', { name: /Algebra drill/ })).getByRole('button', { name: 'Edit' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/question-set/s2'));
  // (The earlier dialog may still be in its 200 ms closing transition; a new one would stay.)
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('a new set: the spec §5 save messages, before anything is sent', async () => {
  const api = server();
  const user = userEvent.setup();
  await open('/question-set');
  await user.click(screen.getByRole('button', { name: 'New question set' }));
  expect(await screen.findByRole('tab', { name: 'Sections' })).toHaveAttribute('aria-selected', 'true');
  // A missing duration is the default 90 minutes.
  expect(screen.getByText('Left empty or 0, the test lasts 90 minutes')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Save draft' }));
  const alert = await screen.findByRole('alert');
  expect(within(alert).getByText('Question set cannot be saved without label')).toBeInTheDocument();
  expect(within(alert).getByText('Question set cannot be saved without any section')).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Label' })).toHaveAccessibleDescription('Question set cannot be saved without label');

  const nm = screen.getByRole('textbox', { name: 'Negative marking' });
  await user.clear(nm);
  await user.type(nm, '-1');
  expect(nm).toHaveAccessibleDescription(/Negative marking should be a positive number/);
  await user.click(screen.getByRole('button', { name: 'Publish' }));
  expect(within(await screen.findByRole('alert')).getByText('Negative marking should be a positive number')).toBeInTheDocument();
  expect(patches(api)).toEqual([]);
});

test('the save messages in Hindi', async () => {
  const api = server();
  const user = userEvent.setup();
  await open('/question-set/new', { lang: 'hi' });
  await user.click(await screen.findByRole('button', { name: 'ड्राफ़्ट सहेजें' }));
  const alert = await screen.findByRole('alert');
  expect(within(alert).getByText('नाम के बिना प्रश्न सेट सहेजा नहीं जा सकता')).toBeInTheDocument();
  expect(within(alert).getByText('किसी भी खंड के बिना प्रश्न सेट सहेजा नहीं जा सकता')).toBeInTheDocument();
  const nm = screen.getByRole('textbox', { name: 'नकारात्मक अंकन' });
  await user.clear(nm);
  await user.type(nm, '-2');
  expect(nm).toHaveAccessibleDescription(/नकारात्मक अंकन एक धनात्मक संख्या होनी चाहिए/);
  expect(patches(api)).toEqual([]);
});

test('section names: spec §5 rules when adding and renaming, in English and Hindi', async () => {
  server();
  const user = userEvent.setup();
  const view = await open('/question-set/new');
  const name = await screen.findByRole('textbox', { name: 'Section name' });
  const add = async (text: string) => {
    await user.clear(name);
    await user.type(name, text);
    await user.click(screen.getByRole('button', { name: 'Add section' }));
  };
  await add('Main');
  expect(name).toHaveAccessibleDescription(
    'Section with this name cannot be created. Add question without section. It is automatically added to main section.',
  );
  await add('nm');
  expect(name).toHaveAccessibleDescription('Invalid section name');
  await add('Reasoning');
  expect(screen.getByRole('region', { name: 'Reasoning' })).toBeInTheDocument();
  expect(name).toHaveValue('');
  await add(' reasoning ');
  expect(name).toHaveAccessibleDescription('Duplicate section name.');
  await add('Maths');

  // Renaming follows the same rules; moving changes the order.
  await user.click(screen.getByRole('button', { name: 'Rename Maths' }));
  const rename = screen.getByRole('textbox', { name: 'New name of Maths' });
  await user.clear(rename);
  await user.type(rename, 'REASONING{Enter}');
  expect(rename).toHaveAccessibleDescription('Duplicate section name.');
  await user.clear(rename);
  await user.type(rename, 'Quant{Enter}');
  expect(screen.getByRole('region', { name: 'Quant' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Move Quant up' }));
  const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
  expect(regions.indexOf('Quant')).toBeLessThan(regions.indexOf('Reasoning'));
  view.unmount();

  await open('/question-set/new', { lang: 'hi' });
  const hiName = await screen.findByRole('textbox', { name: 'खंड का नाम' });
  await user.type(hiName, 'main');
  await user.click(screen.getByRole('button', { name: 'खंड जोड़ें' }));
  expect(hiName).toHaveAccessibleDescription('इस नाम का खंड नहीं बनाया जा सकता। प्रश्न बिना खंड के जोड़ें। वह अपने आप मुख्य खंड में जुड़ जाएगा।');
  await user.clear(hiName);
  await user.type(hiName, 'q');
  await user.click(screen.getByRole('button', { name: 'खंड जोड़ें' }));
  expect(hiName).toHaveAccessibleDescription('खंड का नाम अमान्य है');
});

test('sub-sections carry the marks; a new set is saved as a draft and gets its address', async () => {
  const api = server();
  const user = userEvent.setup();
  const { router } = await open('/question-set/new');
  await user.type(await screen.findByRole('textbox', { name: 'Label' }), 'Mock 7');
  const nm = screen.getByRole('textbox', { name: 'Negative marking' });
  await user.clear(nm);
  await user.type(nm, '0.25');
  await user.type(screen.getByRole('textbox', { name: 'Duration (minutes)' }), '45');
  await user.click(screen.getByRole('checkbox', { name: 'Marathi' }));
  await user.click(screen.getByRole('checkbox', { name: 'Free for everyone' }));
  await user.type(screen.getByRole('textbox', { name: 'Section name' }), 'GK{Enter}');
  const gk = screen.getByRole('region', { name: 'GK' });
  await user.click(within(gk).getByRole('switch', { name: /^Has sub-sections/ }));
  expect(within(gk).queryByRole('textbox', { name: 'Marks for each question (GK)' })).not.toBeInTheDocument();
  await user.type(within(gk).getByRole('textbox', { name: 'Sub-section name' }), 'History');
  await user.click(within(gk).getByRole('button', { name: 'Add sub-section' }));
  const tm = within(gk).getByRole('textbox', { name: 'Section total (GK › History)' });
  await user.clear(tm);
  await user.type(tm, '5');
  await user.click(screen.getByRole('button', { name: 'Save draft' }));

  expect(await screen.findByText('Question set created successfully')).toBeInTheDocument();
  const body = patches(api)[0]!;
  expect(body).toMatchObject({
    l: 'Mock 7',
    mpq: 1,
    tm: 0,
    nm: 0.25,
    dur: 45,
    isM: false,
    free: true,
    langs: ['mr'],
    draft: true,
    q: [],
    sections: { GK: { ss: true, q: [], mpq: 0, tm: 0, nm: 0, o: 0, sub: { History: { q: [], mpq: 1, tm: 5, nm: 0, o: 0 } } } },
  });
  expect(body).not.toHaveProperty('id');
  expect(typeof body.pts).toBe('number');
  await waitFor(() => expect(router.state.location.pathname).toBe('/question-set/new-set'));
});

test('a set learners have taken: the server asks, the editor confirms, the save is sent again as a new version', async () => {
  const api = server({
    save: (body, n) =>
      n === 1
        ? json({ success: false, code: 'CONFLICT', msg: MSG.setTakenNewVersion }, 409)
        : json({ success: true, id: 's1', msg: MSG.questionSetUpdated, data: { ...SETS[0]!, ...body, version: 3 } }),
  });
  const user = userEvent.setup();
  await open('/question-set/s1');
  const mpq = await screen.findByRole('textbox', { name: 'Marks per question' });
  await user.clear(mpq);
  await user.type(mpq, '2');
  await user.clear(screen.getByRole('textbox', { name: 'Total marks' }));
  await user.click(screen.getByRole('button', { name: 'Save' }));
  const dialog = await screen.findByRole('dialog', { name: 'Save as a new version?' });
  expect(dialog).toHaveTextContent(MSG.setTakenNewVersion);
  expect(patches(api)[0]).toMatchObject({ id: 's1', mpq: 2, draft: false });
  expect(patches(api)[0]).not.toHaveProperty('newVersion');
  await user.click(within(dialog).getByRole('button', { name: 'Save new version' }));
  expect(await screen.findByText('Question set updated successfully')).toBeInTheDocument();
  expect(patches(api)[1]).toMatchObject({ id: 's1', mpq: 2, draft: false, newVersion: true });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save as a new version?' })).not.toBeInTheDocument());
});

test('the new-version question in Hindi; cancelling sends nothing more', async () => {
  const api = server({ save: () => json({ success: false, code: 'CONFLICT', msg: MSG.setTakenNewVersion }, 409) });
  const user = userEvent.setup();
  await open('/question-set/s1', { lang: 'hi' });
  await user.click(await screen.findByRole('button', { name: 'सहेजें' }));
  const dialog = await screen.findByRole('dialog', { name: 'नए संस्करण के रूप में सहेजें?' });
  expect(dialog).not.toHaveTextContent(MSG.setTakenNewVersion);
  expect(dialog.textContent).toMatch(/[\u0900-\u097F]{3}/);
  await user.click(within(dialog).getByRole('button', { name: 'रद्द करें' }));
  expect(patches(api)).toHaveLength(1);
});

test('what the server refuses besides (only approved questions in a published set) is shown as it says it', async () => {
  server({ save: () => json({ success: false, code: 'BAD_REQUEST', msg: `${MSG.questionNotApproved} q2` }, 400) });
  const user = userEvent.setup();
  await open('/question-set/s1');
  await user.click(await screen.findByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Only approved questions can go into a published set: q2');
});

test('Questions tab: per part, "Add questions" picks from the list up to the allowed count; order and removal', async () => {
  const api = server({ sets: [setView('s1', { mpq: 1, tm: 2, q: [], draft: true, published: false, sections: { Reasoning: { ss: false, q: [], mpq: 2, tm: 2, nm: 0, o: 0 } } })] });
  const user = userEvent.setup();
  await open('/question-set/s1');
  await user.click(await screen.findByRole('tab', { name: 'Questions' }));
  const main = screen.getByRole('region', { name: 'Main' });
  expect(within(main).getByText(/0 of 2 questions/)).toBeInTheDocument();
  await user.click(within(main).getByRole('button', { name: 'Add questions' }));
  const picker = await screen.findByRole('dialog', { name: 'Add questions to Main' });
  await within(picker).findByText('Question q1');
  const box = (id: string) => within(within(picker).getByTestId(`question-row-${id}`)).getByRole('checkbox', { name: 'Select question' });
  await user.click(box('q1'));
  await user.click(box('q2'));
  await user.click(box('q3'));
  expect(within(picker).getByRole('alert')).toHaveTextContent('Only 2 questions are allowed in Main section');
  await user.click(within(picker).getByRole('button', { name: 'Done' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  expect(await within(main).findByText('Question q2')).toBeInTheDocument();
  expect(within(main).getByText(/2 of 2 questions/)).toBeInTheDocument();
  await user.click(within(main).getByRole('button', { name: 'Move question 2 up' }));
  expect(within(main).getAllByTestId(/^chosen-/).map((e) => e.dataset.testid)).toEqual(['chosen-q2', 'chosen-q1']);

  // Reasoning allows floor(2 / 2) = 1; what Main holds cannot be chosen again.
  const reasoning = screen.getByRole('region', { name: 'Reasoning' });
  await user.click(within(reasoning).getByRole('button', { name: 'Add questions' }));
  const picker2 = await screen.findByRole('dialog', { name: 'Add questions to Reasoning' });
  await within(picker2).findByText('Question q1');
  const box2 = (id: string) => within(within(picker2).getByTestId(`question-row-${id}`)).getByRole('checkbox', { name: 'Select question' });
  expect(box2('q1')).toBeDisabled();
  await user.click(box2('q3'));
  await user.click(box2('q4'));
  expect(within(picker2).getByRole('alert')).toHaveTextContent('Only 1 questions are allowed in Reasoning section');
  await user.click(within(picker2).getByRole('button', { name: 'Done' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await user.click(within(main).getByRole('button', { name: 'Remove question 2' }));

  await user.click(screen.getByRole('button', { name: 'Save draft' }));
  await screen.findByText('Question set updated successfully');
  expect(patches(api)[0]).toMatchObject({ q: ['q2'], sections: { Reasoning: { q: ['q3'] } }, draft: true });
});

test('Question Set View: the set read only, and Preview runs the saved set in the test screen', async () => {
  const seen: { set: QuestionSetDoc; detail: QsDetailDoc }[] = [];
  const previews: Previews = {
    QuestionPreview: () => null,
    SetPreview: ({ set, detail, onClose }) => {
      seen.push({ set, detail });
      return (
        <div role="dialog" aria-label="test screen">
          {set.l}
          <button type="button" onClick={onClose}>
            close preview
          </button>
        </div>
      );
    },
  };
  const doc = { id: 's1', l: 'Weekly test 1' } as QuestionSetDoc;
  const detail = { id: 's1', questions: [] } as unknown as QsDetailDoc;
  const api = server({}, (c) => (c.path === '/question/previewQuestionSet/s1' ? json({ success: true, set: doc, detail }) : undefined));
  const user = userEvent.setup();
  await open('/question-set/s1', { previews });
  await user.click(await screen.findByRole('tab', { name: 'Question Set View' }));
  expect(screen.getByRole('heading', { name: 'Weekly test 1', level: 3 })).toBeInTheDocument();
  const parts = screen.getByRole('table', { name: 'Parts of the set' });
  expect(within(parts).getAllByRole('row').map((r) => r.textContent)).toEqual([
    'PartQuestionsMarks per questionNegative markingTotal marks',
    'Main1 of 1 questions10.251',
    'Reasoning1 of 1 questions20.52',
  ]);
  expect(screen.getByText('Read carefully')).toBeInTheDocument();
  expect(screen.getByText('60 minutes')).toBeInTheDocument();
  expect(await screen.findByText('Question q1')).toBeInTheDocument();
  expect(screen.getByText('Question q2')).toBeInTheDocument();
  // Numbered across the set, as the test numbers them.
  expect(within(screen.getByRole('region', { name: 'Reasoning' })).getByText('Question 2')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Preview' }));
  expect(await screen.findByRole('dialog', { name: 'test screen' })).toHaveTextContent('Weekly test 1');
  expect(api.calls.some((c) => c.path === '/question/previewQuestionSet/s1')).toBe(true);
  expect(seen.at(-1)).toEqual({ set: doc, detail });
  await user.click(screen.getByRole('button', { name: 'close preview' }));
  expect(screen.queryByRole('dialog', { name: 'test screen' })).not.toBeInTheDocument();
  // Previewing writes nothing.
  expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
});

test('a published set: "Save" keeps it published; "Unpublish" asks first, and only a yes takes it from learners', async () => {
  const api = server({}, (c) =>
    c.path === '/question/unpublishQuestionSet'
      ? json({ success: true, id: 's1', msg: MSG.questionSetUnpublished, data: { ...SETS[0]!, draft: true, published: false } })
      : undefined,
  );
  const user = userEvent.setup();
  await open('/question-set/s1');
  // No "Save draft" that would withdraw it silently (docs/authoring.md "Publishing and unpublishing").
  expect(await screen.findByRole('button', { name: 'Save' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
  expect(screen.getByText('Published: saving keeps it published')).toBeInTheDocument();
  await user.type(screen.getByRole('textbox', { name: 'Label' }), ' (revised)');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await screen.findByText('Question set updated successfully');
  expect(patches(api)).toEqual([expect.objectContaining({ id: 's1', l: 'Weekly test 1 (revised)', draft: false })]);

  await user.click(screen.getByRole('button', { name: 'Unpublish' }));
  const dialog = await screen.findByRole('dialog', { name: 'Unpublish this question set?' });
  expect(dialog).toHaveTextContent('learners no longer see it');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(api.calls.some((c) => c.path === '/question/unpublishQuestionSet')).toBe(false);

  await user.click(screen.getByRole('button', { name: 'Unpublish' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Unpublish this question set?' })).getByRole('button', { name: 'Unpublish' }));
  expect(await screen.findByText(MSG.questionSetUnpublished)).toBeInTheDocument();
  expect(api.calls.filter((c) => c.path === '/question/unpublishQuestionSet').map((c) => [c.method, c.body])).toEqual([['PATCH', { id: 's1' }]]);
  // Now a draft: the draft's buttons, and nothing was saved on the way.
  expect(await screen.findByRole('button', { name: 'Save draft' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Publish' })).toBeInTheDocument();
  expect(patches(api)).toHaveLength(1);
});

test('totals: what learners will see is counted at the field; a typed total that disagrees is said before saving, in Hindi too', async () => {
  const api = server();
  const user = userEvent.setup();
  await open('/question-set/s1', { lang: 'hi' });
  const tm = await screen.findByRole('textbox', { name: 'कुल अंक' });
  expect(screen.getByText('शिक्षार्थी 1 अंक देखते हैं: 1 प्रश्न × 1। गिनती अपने-आप हो, इसके लिए 0 रहने दें।')).toBeInTheDocument();
  await user.clear(tm);
  await user.type(tm, '5');
  expect(await screen.findByText('मुख्य खंड के कुल अंक 1 होने चाहिए (प्रश्न × प्रति प्रश्न अंक: 1 × 1), या अपने-आप गिनती के लिए 0')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'सहेजें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('मुख्य खंड के कुल अंक 1 होने चाहिए');
  expect(patches(api)).toEqual([]);
});

test('set texts in Hindi: the title, instructions and section names are written beside the English and sent with it', async () => {
  const api = server();
  const user = userEvent.setup();
  await open('/question-set/s1');
  await user.type(await screen.findByRole('textbox', { name: 'Title in Hindi' }), 'साप्ताहिक परीक्षा 1');
  await user.type(screen.getByRole('textbox', { name: 'Name in Hindi (Reasoning)' }), 'तर्कशक्ति');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await screen.findByText('Question set updated successfully');
  expect(patches(api)[0]).toMatchObject({ trans: { hi: { l: 'साप्ताहिक परीक्षा 1', inst: '' } }, sections: { Reasoning: { names: { hi: 'तर्कशक्ति' } } } });
});
