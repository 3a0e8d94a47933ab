import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { QuestionView } from '@pm/protocol/question';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { PreviewProvider, type Previews } from '@/components/preview-context';
import { COLUMNS_STORAGE_KEY } from './columns';
import { QuestionList } from './question-list';
import QuestionListPage from './question-list-page';
import { questionView, TAGS } from './test-data';

/** The editor the list makes hidden in advance shows the learner's preview, lent by app/router. */
const previews: Previews = { QuestionPreview: () => null, SetPreview: () => null };
const listPage = () => (
  <PreviewProvider value={previews}>
    <QuestionListPage />
  </PreviewProvider>
);

const NS = ['authoring-bank', 'messages'];

beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

/** A bank of `total` questions answered 25 a page; `onDelete` decides a DELETE's answer. */
function bank({ total = 3, questions, onDelete }: { total?: number; questions?: QuestionView[]; onDelete?: (id: string) => Response } = {}) {
  const all = questions ?? Array.from({ length: total }, (_, i) => questionView(`q${i + 1}`));
  return mockApi((c: Call) => {
    if (c.path === '/tag') return json({ success: true, data: TAGS[c.query.get('key') as keyof typeof TAGS] ?? [] });
    if (c.path === '/question/getQuestionsCount') return json({ success: true, count: all.length });
    if (c.path === '/question' && c.method === 'GET') {
      const o = Number(c.query.get('o') ?? 0);
      const l = Number(c.query.get('l') ?? 25);
      return json({ success: true, data: all.slice(o, o + l) });
    }
    if (c.method === 'DELETE' && onDelete) return onDelete(c.path.split('/').pop() ?? '');
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

const listCalls = (api: { calls: Call[] }) => api.calls.filter((c) => c.path === '/question' && c.method === 'GET');

test('filters from the address go to the list and the count; a new filter goes to the address', async () => {
  const api = bank();
  const user = userEvent.setup();
  const { router } = await renderWithApp(listPage(), { route: '/question-list?s=maths&d=3,4&st=APPROVED', namespaces: NS });
  expect(await screen.findByText('3 questions')).toBeInTheDocument();
  const first = listCalls(api)[0]!;
  expect(Object.fromEntries(first.query)).toEqual({ s: 'maths', d: '3,4', st: 'APPROVED', l: '25', o: '0' });
  const count = api.calls.find((c) => c.path === '/question/getQuestionsCount')!;
  expect(Object.fromEntries(count.query)).toEqual({ s: 'maths', d: '3,4', st: 'APPROVED' });

  // The type filter: "any of" the chosen types.
  await user.click(screen.getByRole('combobox', { name: 'Question type' }));
  await user.click(await screen.findByRole('option', { name: 'Multiple choice', hidden: true }));
  await waitFor(() => expect(listCalls(api).some((c) => c.query.get('qt') === 'mcq2')).toBe(true));
  expect(router.state.location.search).toBe('?s=maths&qt=mcq2&d=3%2C4&st=APPROVED');
  const withType = api.calls.filter((c) => c.path === '/question/getQuestionsCount').at(-1)!;
  expect(withType.query.get('qt')).toBe('mcq2');
});

test('the text search waits for typing to pause, then asks once and keeps it in the address', async () => {
  const api = bank();
  const user = userEvent.setup();
  const { router } = await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  await screen.findByText('3 questions');
  await user.type(screen.getByRole('textbox', { name: 'Search' }), 'acid base');
  await waitFor(() => expect(router.state.location.search).toBe('?search=acid+base'));
  await waitFor(() => expect(listCalls(api).some((c) => c.query.get('search') === 'acid base')).toBe(true));
  // Debounced: no request for the words half typed.
  const searched = listCalls(api)
    .map((c) => c.query.get('search'))
    .filter(Boolean);
  expect(searched).toEqual(['acid base']);
  await user.click(screen.getByRole('button', { name: 'Clear filters' }));
  await waitFor(() => expect(router.state.location.search).toBe(''));
  expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
});

test('pages of 25 with the total from getQuestionsCount; the page is kept in the address', async () => {
  const api = bank({ total: 60 });
  const user = userEvent.setup();
  const { router } = await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  expect(await screen.findByText('60 questions')).toBeInTheDocument();
  expect(await screen.findByText('Question q25')).toBeInTheDocument();
  expect(screen.queryByText('Question q26')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Page 3 of 3' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Page 4 of 3' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Page 2 of 3' }));
  expect(await screen.findByText('Question q26')).toBeInTheDocument();
  expect(listCalls(api).at(-1)!.query.get('o')).toBe('25');
  expect(router.state.location.search).toBe('?page=2');
});

test('the count and the columns in Hindi: tag names, type and status are translated', async () => {
  bank({ total: 1 });
  await renderWithApp(listPage(), { route: '/question-list', lang: 'hi', namespaces: NS });
  expect(await screen.findByText('1 प्रश्न')).toBeInTheDocument();
  const row = screen.getByTestId('question-row-q1');
  expect(await within(row).findByText('गणित')).toBeInTheDocument();
  expect(within(row).getByText('बीजगणित')).toBeInTheDocument();
  expect(within(row).getByText('एक सही विकल्प')).toBeInTheDocument();
  expect(within(row).getByText('स्वीकृत')).toBeInTheDocument();
  expect(within(row).getByText('3 · मध्यम')).toBeInTheDocument();
  expect(screen.getByRole('columnheader', { name: 'स्थिति' })).toBeInTheDocument();
});

test('the column chooser shows the spec fields and remembers the choice in this browser', async () => {
  bank({ questions: [questionView('q1', { ops: { a: '<p>Three</p>', b: '<p>Four</p>' }, ca: ['b'] })] });
  const user = userEvent.setup();
  const view = await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  await screen.findByText('Question q1');
  const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
  // In the spec's order, whatever the order of choosing.
  expect(headers()).toEqual(['Question', 'Difficulty Level', 'Topic', 'Subject', 'Question Type', 'Status', 'Actions']);
  // Tags by name.
  const row = screen.getByTestId('question-row-q1');
  expect(await within(row).findByText('Mathematics')).toBeInTheDocument();
  expect(within(row).getByText('Algebra')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Columns' }));
  // (Mantine's dropdowns count as hidden in jsdom, which runs no transitions.)
  const chooser = await screen.findByRole('group', { name: 'Columns', hidden: true });
  expect(within(chooser).getAllByRole('checkbox', { hidden: true }).map((c) => c.getAttribute('value'))).toEqual(['q', 'ops', 'ca', 'c', 'd', 't', 'e', 's', 'qt', 'st']);
  await user.click(within(chooser).getByRole('checkbox', { name: 'Correct Anwer', hidden: true }));
  await user.click(within(chooser).getByRole('checkbox', { name: 'Options', hidden: true }));
  await user.click(within(chooser).getByRole('checkbox', { name: 'Topic', hidden: true }));
  expect(headers()).toEqual(['Question', 'Options', 'Correct Anwer', 'Difficulty Level', 'Subject', 'Question Type', 'Status', 'Actions']);
  // Options as the learner sees them (A, B), the correct one by its letter.
  expect(within(row).getByText('Four')).toBeInTheDocument();
  expect(within(row).getByText('B')).toBeInTheDocument();
  expect(JSON.parse(localStorage.getItem(COLUMNS_STORAGE_KEY) ?? '[]')).toEqual(['q', 'ops', 'ca', 'd', 's', 'qt', 'st']);

  view.unmount();
  await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  await screen.findByText('Question q1');
  expect(headers()).toEqual(['Question', 'Options', 'Correct Anwer', 'Difficulty Level', 'Subject', 'Question Type', 'Status', 'Actions']);
});

test('Edit opens the question in the editor', async () => {
  bank({ total: 1 });
  const user = userEvent.setup();
  const { router } = await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  await screen.findByText('Question q1');
  await user.click(screen.getByRole('link', { name: 'Edit' }));
  expect(router.state.location.pathname).toBe('/question-editor');
  expect(router.state.location.search).toBe('?id=q1');
});

test('Delete asks first; a question a published set uses is refused with the server message and stays', async () => {
  let refuse = true;
  const api = bank({
    total: 2,
    onDelete: () =>
      refuse
        ? json({ success: false, code: 'CONFLICT', msg: 'This question is used in a question set. Remove it from the set first: Weekly test 1' }, 409)
        : json({ success: true, msg: 'Question deleted successfully' }),
  });
  const user = userEvent.setup();
  await renderWithApp(listPage(), { route: '/question-list', namespaces: NS });
  await screen.findByText('Question q1');
  const row = screen.getByTestId('question-row-q1');
  await user.click(within(row).getByRole('button', { name: 'Delete' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete this question?' });
  expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('This question is used in a question set. Remove it from the set first: Weekly test 1')).toBeInTheDocument();
  expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe('/question/q1');
  expect(screen.getByTestId('question-row-q1')).toBeInTheDocument();

  refuse = false;
  await user.click(within(screen.getByTestId('question-row-q2')).getByRole('button', { name: 'Delete' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Delete this question?' })).getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Question deleted successfully')).toBeInTheDocument();
  // The list is asked again after a delete.
  await waitFor(() => expect(listCalls(api).length).toBeGreaterThan(1), { timeout: 5000 });
});

/** The picker as the question-set screen uses it: the selection lives in the caller. */
function Picker({ allowed, partName, initial = [], elsewhere = [] }: { allowed: number; partName: string | null; initial?: string[]; elsewhere?: string[] }) {
  const [selected, setSelected] = useState<string[]>(initial);
  return (
    <>
      <output data-testid="selected">{selected.join(',')}</output>
      <QuestionList selection={{ selected, allowed, partName, onChange: setSelected, elsewhere }} />
    </>
  );
}

test('selection mode: ticks up to the allowed count, then the spec limit message; drafts are marked', async () => {
  bank({ questions: [questionView('q1'), questionView('q2', { st: 'PENDING' }), questionView('q3'), questionView('q4')] });
  const user = userEvent.setup();
  await renderWithApp(<Picker allowed={2} partName="Reasoning" elsewhere={['q4']} />, { namespaces: NS });
  await screen.findByText('Question q1');
  // No edit or delete while picking; the status column is always there.
  expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Status');
  const box = (id: string) => within(screen.getByTestId(`question-row-${id}`)).getByRole('checkbox', { name: 'Select question' });
  expect(box('q2')).toHaveAccessibleDescription('Not approved yet: fine in a draft, but the set cannot be published with it');
  expect(box('q4')).toBeDisabled();

  await user.click(box('q1'));
  await user.click(box('q2'));
  expect(screen.getByTestId('selected')).toHaveTextContent('q1,q2');
  expect(screen.getByText('2 of 2 chosen for Reasoning')).toBeInTheDocument();
  await user.click(box('q3'));
  expect(await screen.findByRole('alert')).toHaveTextContent('Only 2 questions are allowed in Reasoning section');
  expect(screen.getByTestId('selected')).toHaveTextContent('q1,q2');
  expect(box('q3')).not.toBeChecked();
  // Unticking makes room again.
  await user.click(box('q1'));
  await user.click(box('q3'));
  expect(screen.getByTestId('selected')).toHaveTextContent('q2,q3');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('selection limit message in Hindi, for Main and for a section, from the same numbers', async () => {
  bank({ total: 2 });
  const user = userEvent.setup();
  const view = await renderWithApp(<Picker allowed={1} partName={null} initial={['q1']} />, { lang: 'hi', namespaces: NS });
  await screen.findByText('Question q2');
  await user.click(within(screen.getByTestId('question-row-q2')).getByRole('checkbox', { name: 'प्रश्न चुनें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('मुख्य खंड में केवल 1 प्रश्नों की अनुमति है');
  view.unmount();

  await renderWithApp(<Picker allowed={1} partName="तर्कशक्ति" initial={['q1']} />, { lang: 'hi', namespaces: NS });
  await screen.findByText('Question q2');
  await user.click(within(screen.getByTestId('question-row-q2')).getByRole('checkbox', { name: 'प्रश्न चुनें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('तर्कशक्ति खंड में केवल 1 प्रश्नों की अनुमति है');
});
