import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editor } from '@tiptap/react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { afterEach, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import type { QuestionInput, QuestionVersionEntry, QuestionView } from '@pm/protocol/question';
import { MSG } from '@pm/protocol/messages';
import type { Tag } from '@pm/protocol/tag';
import { PreviewProvider, type Previews } from '@/components/preview-context';
import { RichHtml } from '@/components/rich-html';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { usePrefetchQuestion } from '../api/questions';
import { QuestionEditor } from './question-editor';
import QuestionEditorPage from './question-editor-page';

const NS = ['authoring-editor', 'messages'];
const TAGS: Record<Tag['key'], Tag[]> = {
  c: [{ key: 'c', tid: 'class-10', tags: { en: 'Class 10', hi: 'कक्षा 10' } }],
  s: [{ key: 's', tid: 'gk', tags: { en: 'General knowledge', hi: 'सामान्य ज्ञान' } }],
  t: [{ key: 't', tid: 'capitals', tags: { en: 'Capitals' } }],
  e: [],
};

/**
 * The test screen's view is lent by the exams feature (app/router), which authoring must not
 * import: a stand-in draws what it is given (the question in the language asked for) the way
 * the real one does, through the shared RichHtml.
 */
const previews: Previews = {
  QuestionPreview: ({ question, lang }) => (
    <div data-testid={`view-${lang}`}>
      <RichHtml html={(lang !== 'en' && question.trans[lang]?.q) || question.q} />
      <span data-testid={`view-${lang}-type`}>{question.qt}</span>
    </div>
  ),
  SetPreview: () => null,
};
const withPreviews = (ui: ReactElement) => <PreviewProvider value={previews}>{ui}</PreviewProvider>;

// ProseMirror measures the selection (scrolling it into view, placing popovers) with Range
// geometry, which jsdom lacks: an empty box, as for elements.
beforeAll(() => {
  Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect(0, 0, 0, 0);
});
beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

function view(overrides: Partial<QuestionView> = {}): QuestionView {
  return {
    id: 'q1',
    q: '<p>Capital of India?</p>',
    ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>', c: '<p>Kolkata</p>', d: '<p>Chennai</p>' },
    ca: ['a'],
    qt: 'mcq1',
    d: '3',
    c: ['class-10'],
    s: 'gk',
    t: [],
    e: [],
    st: 'PENDING',
    reason: null,
    expl: '',
    trans: {},
    version: 2,
    createdAt: Date.UTC(2026, 0, 5, 10),
    updatedAt: Date.UTC(2026, 0, 6, 10),
    createdBy: 'u1',
    updatedBy: 'u1',
    ...overrides,
  };
}

/** The server: tags, one stored question (q1) with its history, and every write the editor makes. */
function server(stored: QuestionView = view()) {
  let current = stored;
  return mockApi((c: Call) => {
    if (c.path === '/tag') return json({ success: true, data: TAGS[c.query.get('key') as Tag['key']] ?? [] });
    if (c.path === '/question' && c.method === 'POST') {
      current = { ...view(), ...(c.body as QuestionInput), id: 'new1', version: 1 } as QuestionView;
      return json({ success: true, id: 'new1', msg: 'Question created successfully', data: current });
    }
    if (c.path === '/question' && c.method === 'PATCH') {
      current = { ...current, ...(c.body as QuestionInput), version: current.version + 1 } as QuestionView;
      return json({ success: true, id: current.id, msg: 'Question updated successfully', data: current });
    }
    if (c.path === '/question/updateStatus') {
      const b = c.body as { st: QuestionView['st']; reason?: string };
      current = { ...current, st: b.st, reason: b.reason ?? null, version: current.version + 1 };
      return json({ success: true, id: current.id, msg: 'Question status updated successfully', data: current });
    }
    if (c.path === `/question/getQuestionHistory/${current.id}`) {
      const v1 = { ...view(), ops: { ...view().ops, a: '<p>New Delhi</p>' } };
      const history: QuestionVersionEntry[] = [
        { version: 2, action: 'UPDATE', actor: { id: 'u1', name: 'Esha Editor' }, createdAt: Date.UTC(2026, 0, 6, 10), data: { ...current } },
        { version: 1, action: 'CREATE', actor: { id: 'u1', name: 'Esha Editor' }, createdAt: Date.UTC(2026, 0, 5, 10), data: v1 },
      ];
      return json({ success: true, data: history });
    }
    if (c.path === '/question/restoreQuestionVersion') {
      current = { ...current, ops: { ...current.ops, a: '<p>New Delhi</p>' }, version: current.version + 1 };
      return json({ success: true, id: current.id, msg: 'Version restored successfully', data: current });
    }
    if (c.path === `/question/${current.id}` && c.method === 'GET') return json({ success: true, data: current });
    if (c.path === '/media' && c.method === 'POST') return json({ success: true, url: `/media/${'a'.repeat(64)}.png`, msg: 'Image uploaded successfully' });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

const writes = (api: { calls: Call[] }, path = '/question') => api.calls.filter((c) => c.path === path && c.method !== 'GET');

/** The rich-text box named `name` and its tiptap editor (jsdom cannot type into contenteditable). */
async function box(name: string) {
  // A field may be drawn as its text first and become its editor right after (rich-text-field
  // `live`): the box is the element that has the editor.
  let el: (HTMLElement & { editor?: Editor }) | null = null;
  await waitFor(() => {
    el = screen.getByRole('textbox', { name }) as HTMLElement & { editor?: Editor };
    expect(el.editor).toBeTruthy();
  });
  return el! as HTMLElement & { editor: Editor };
}
/** Replaces the box's content, as typing or pasting would. */
async function write(name: string, html: string) {
  const el = await box(name);
  act(() => {
    el.editor.chain().setContent(html, { emitUpdate: true }).run();
  });
}

async function openEditor(route = '/question-editor', lang: 'en' | 'hi' = 'en') {
  const r = await renderWithApp(withPreviews(<QuestionEditorPage />), { route, lang, namespaces: NS });
  await box(lang === 'en' ? 'Question' : 'प्रश्न');
  return r;
}

test.each([
  ['en', 'Save', 'Please correct the following before saving', 'Question cannot be blank', 'Option cannot be blank', 'Correct answer is missing.', 'Option A'],
  ['hi', 'सहेजें', 'सहेजने से पहले कृपया ये सुधारें', 'प्रश्न खाली नहीं हो सकता', 'विकल्प खाली नहीं हो सकता', 'सही उत्तर नहीं दिया गया है।', 'विकल्प A'],
] as const)('%s: an empty question is not sent; each field shows its rule (spec §5 messages)', async (lang, save, summaryTitle, qBlank, opBlank, caMissing, optionA) => {
  const api = server();
  const user = userEvent.setup();
  await openEditor('/question-editor', lang);
  await user.click(screen.getByRole('button', { name: save }));

  // A summary lists every problem with its field; each field shows its own message too.
  const summary = (await screen.findByText(summaryTitle)).closest<HTMLElement>('[role="alert"]')!;
  expect(within(summary).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
    `${lang === 'en' ? 'Question' : 'प्रश्न'}: ${qBlank}`,
    ...['A', 'B', 'C', 'D'].map((k) => `${optionA.replace('A', k)}: ${opBlank}`),
    `${lang === 'en' ? 'Correct answer' : 'सही उत्तर'}: ${caMissing}`,
  ]);
  expect(screen.getAllByText(qBlank).length).toBeGreaterThan(0);
  expect(screen.getAllByText(opBlank).length).toBeGreaterThanOrEqual(4);
  expect(screen.getAllByText(caMissing).length).toBeGreaterThan(0);
  expect(await box(optionA)).toHaveAttribute('aria-invalid', 'true');
  expect(writes(api)).toEqual([]);

  // Written and marked: the messages go as the mistakes are mended.
  await write(lang === 'en' ? 'Question' : 'प्रश्न', '<p>Capital of India?</p>');
  await waitFor(() => expect(screen.queryByText(qBlank)).toBeNull());
  for (const k of ['A', 'B', 'C', 'D']) await write(optionA.replace('A', k), `<p>City ${k}</p>`);
  await waitFor(() => expect(screen.queryByText(opBlank)).toBeNull());
  await user.click(screen.getByRole('radio', { name: lang === 'en' ? 'Option B is correct' : 'विकल्प B सही है' }));
  await waitFor(() => expect(screen.queryByText(caMissing)).toBeNull());
});

test.each([
  ['en', 'Save', 'Question created successfully', 'Question updated successfully'],
  ['hi', 'सहेजें', 'प्रश्न सफलतापूर्वक बनाया गया', 'प्रश्न सफलतापूर्वक अपडेट किया गया'],
] as const)('%s: a new question is created (POST without id), then updated (PATCH with the id it got)', async (lang, save, created, updated) => {
  const api = server();
  const user = userEvent.setup();
  const { router } = await openEditor('/question-editor', lang);
  const option = (k: string) => (lang === 'en' ? `Option ${k}` : `विकल्प ${k}`);
  await write(lang === 'en' ? 'Question' : 'प्रश्न', '<p>Capital of India?</p>');
  for (const [k, city] of [['A', 'Delhi'], ['B', 'Mumbai'], ['C', 'Kolkata'], ['D', 'Chennai']] as const) await write(option(k), `<p>${city}</p>`);
  await user.click(screen.getByRole('radio', { name: lang === 'en' ? 'Option A is correct' : 'विकल्प A सही है' }));
  await user.click(screen.getByRole('button', { name: save }));

  expect(await screen.findByText(created)).toBeInTheDocument();
  const post = writes(api)[0]!;
  expect(post.method).toBe('POST');
  expect(post.body).toEqual({
    q: '<p>Capital of India?</p>',
    ops: { a: '<p>Delhi</p>', b: '<p>Mumbai</p>', c: '<p>Kolkata</p>', d: '<p>Chennai</p>' },
    ca: ['a'],
    qt: 'mcq1',
    d: '3',
    c: [],
    s: null,
    t: [],
    e: [],
    st: 'PENDING',
    reason: null,
    expl: '',
    trans: {},
  });
  // The editor now holds the new id; the address too (a reload opens it).
  await waitFor(() => expect(router.state.location.search).toBe('?id=new1'));
  await write(option('D'), '<p>Chennai (Madras)</p>');
  await user.click(screen.getByRole('button', { name: save }));
  expect(await screen.findByText(updated)).toBeInTheDocument();
  const patch = writes(api)[1]!;
  expect(patch.method).toBe('PATCH');
  // The version the edit was made from: the one the POST answered with.
  expect(patch.body).toMatchObject({ id: 'new1', version: 1, ops: { d: '<p>Chennai (Madras)</p>' } });
});

test('type rules: mcq1 keeps one correct option, mcq2 toggles; fill in the blank clears the options and takes accepted answers', async () => {
  const api = server();
  const user = userEvent.setup();
  await openEditor();
  const radios = () => ['A', 'B', 'C', 'D'].map((k) => screen.getByRole('radio', { name: `Option ${k} is correct` }));
  await user.click(radios()[0]!);
  await user.click(radios()[2]!);
  expect(radios().map((r) => (r as HTMLInputElement).checked)).toEqual([false, false, true, false]);

  await user.click(screen.getByRole('combobox', { name: 'Question type' }));
  await user.click(await screen.findByRole('option', { name: 'Multiple choice', hidden: true }));
  const boxes = () => ['A', 'B', 'C', 'D'].map((k) => screen.getByRole('checkbox', { name: `Option ${k} is correct` }) as HTMLInputElement);
  expect(boxes().map((b) => b.checked)).toEqual([false, false, true, false]);
  await user.click(boxes()[0]!);
  await user.click(boxes()[3]!);
  await user.click(boxes()[2]!);
  expect(boxes().map((b) => b.checked)).toEqual([true, false, false, true]);

  // Options can be added and removed; the later ones move up a letter.
  await write('Option C', '<p>Third</p>');
  await user.click(screen.getByRole('button', { name: 'Remove option B' }));
  expect(screen.queryByRole('textbox', { name: 'Option D' })).toBeNull();
  expect((await box('Option B')).editor.getHTML()).toBe('<p>Third</p>');
  await user.click(screen.getByRole('button', { name: 'Add option' }));
  expect(await box('Option D')).toBeInTheDocument();

  await user.click(screen.getByRole('combobox', { name: 'Question type' }));
  await user.click(await screen.findByRole('option', { name: 'Fill in the blank', hidden: true }));
  expect(screen.queryByRole('textbox', { name: 'Option A' })).toBeNull();
  await write('Question', '<p>The capital of India is ____.</p>');
  const answers = screen.getByRole('combobox', { name: 'Accepted answers' });
  await user.type(answers, 'Delhi{Enter}New Delhi{Enter}');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await screen.findByText('Question created successfully');
  expect(writes(api)[0]!.body).toMatchObject({ qt: 'f', ops: {}, ca: ['Delhi', 'New Delhi'] });
  // Subjective: a model answer.
  await user.click(screen.getByRole('combobox', { name: 'Question type' }));
  await user.click(await screen.findByRole('option', { name: 'Subjective', hidden: true }));
  expect(screen.getByRole('textbox', { name: 'Model answer' })).toHaveValue('Delhi');
});

test('difficulty 1–5 with names (default 3 Medium) and tags of the four groups go with the question', async () => {
  const api = server();
  const user = userEvent.setup();
  await openEditor();
  const difficulty = screen.getByRole('combobox', { name: 'Difficulty' });
  expect(difficulty).toHaveValue('3 – Medium');
  await user.click(difficulty);
  await user.click(await screen.findByRole('option', { name: '5 – Very difficult', hidden: true }));
  await user.click(screen.getByRole('combobox', { name: 'Subject' }));
  await user.click(await screen.findByRole('option', { name: 'General knowledge', hidden: true }));
  await user.click(screen.getByRole('combobox', { name: 'Class' }));
  await user.click(await screen.findByRole('option', { name: 'Class 10', hidden: true }));
  await write('Question', '<p>Q</p>');
  await write('Option A', '<p>1</p>');
  await write('Option B', '<p>2</p>');
  await user.click(screen.getByRole('button', { name: 'Remove option D' }));
  await user.click(screen.getByRole('button', { name: 'Remove option C' }));
  await user.click(screen.getByRole('radio', { name: 'Option B is correct' }));
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await screen.findByText('Question created successfully');
  expect(writes(api)[0]!.body).toMatchObject({ d: '5', s: 'gk', c: ['class-10'], ops: { a: '<p>1</p>', b: '<p>2</p>' }, ca: ['b'] });
});

test.each([
  ['Ctrl+Enter', { ctrlKey: true }],
  ['Shift+Enter', { shiftKey: true }],
] as const)('the %s shortcut splits the last 4 paragraphs into options A–D without their labels', async (_name, keys) => {
  server();
  await openEditor();
  const q = await box('Question');
  await write('Question', '<p>Which is a prime number?</p><p>(a) 4</p><p>B. 6</p><p>3) 7</p><p>(d) 9</p>');
  act(() => {
    q.editor.commands.focus('end');
  });
  fireEvent.keyDown(q, { key: 'Enter', code: 'Enter', ...keys });
  await waitFor(() => expect(q.editor.getHTML()).toBe('<p>Which is a prime number?</p>'));
  expect((await box('Option A')).editor.getHTML()).toBe('<p>4</p>');
  expect((await box('Option B')).editor.getHTML()).toBe('<p>6</p>');
  expect((await box('Option C')).editor.getHTML()).toBe('<p>7</p>');
  expect((await box('Option D')).editor.getHTML()).toBe('<p>9</p>');
  // Too few paragraphs: nothing moves, and the editor is told why.
  fireEvent.keyDown(q, { key: 'Enter', code: 'Enter', ...keys });
  expect(await screen.findByText('To make options, the question must end with 4 written paragraphs (one per option).')).toBeInTheDocument();
  expect(q.editor.getHTML()).toBe('<p>Which is a prime number?</p>');
});

test('Hindi edits the translation (trans.hi, with the base correct keys); the preview shows each language', async () => {
  const api = server();
  const user = userEvent.setup();
  await openEditor();
  await write('Question', '<p>Capital of India?</p>');
  for (const k of ['A', 'B', 'C', 'D']) await write(`Option ${k}`, `<p>City ${k}</p>`);
  await user.click(screen.getByRole('radio', { name: 'Option C is correct' }));
  await user.click(screen.getByRole('radio', { name: 'हिन्दी' }));
  expect((await box('Question')).editor.isEmpty).toBe(true);
  expect(screen.getByRole('textbox', { name: 'Question' })).toHaveAttribute('lang', 'hi');
  await write('Question', '<p>भारत की राजधानी?</p>');
  // A started translation needs every option.
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect((await screen.findAllByText('Option cannot be blank')).length).toBeGreaterThanOrEqual(4);
  for (const k of ['A', 'B', 'C', 'D']) await write(`Option ${k}`, `<p>शहर ${k}</p>`);
  expect(await screen.findByTestId('view-hi')).toHaveTextContent('भारत की राजधानी?');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await screen.findByText('Question created successfully');
  expect(writes(api)[0]!.body).toMatchObject({
    q: '<p>Capital of India?</p>',
    ca: ['c'],
    trans: { hi: { q: '<p>भारत की राजधानी?</p>', ops: { a: '<p>शहर A</p>', b: '<p>शहर B</p>', c: '<p>शहर C</p>', d: '<p>शहर D</p>' }, ca: ['c'] } },
  });
  await user.click(screen.getByRole('radio', { name: 'English' }));
  expect(await screen.findByTestId('view-en')).toHaveTextContent('Capital of India?');
});

/**
 * The question's formula popover: the dialog the first "Insert formula" control opens. jsdom lays
 * nothing out, so floating-ui takes the anchor for hidden and the popover is there but not
 * "visible" (queries need hidden: true).
 */
async function formulaDialog() {
  const control = screen.getAllByRole('button', { name: 'Insert formula' })[0]!;
  await waitFor(() => expect(control).toHaveAttribute('aria-expanded', 'true'));
  const dialog = await waitFor(() => document.getElementById(control.getAttribute('aria-controls')!)!);
  expect(dialog).toHaveAttribute('role', 'dialog');
  return dialog;
}

test('a formula from the toolbar: LaTeX with a live preview, inserted into the question and drawn in the learner preview', async () => {
  server();
  const user = userEvent.setup();
  await openEditor();
  await user.click(screen.getAllByRole('button', { name: 'Insert formula' })[0]!);
  const dialog = await formulaDialog();
  await user.type(within(dialog).getByRole('textbox', { name: /LaTeX/, hidden: true }), 'x^2');
  await waitFor(() => expect(within(dialog).getByTestId('formula-preview').querySelector('.katex')).not.toBeNull());
  await user.click(within(dialog).getByRole('button', { name: 'Insert', hidden: true }));
  const q = await box('Question');
  await waitFor(() => expect(q.editor.getHTML()).toContain('data-latex="x^2"'));
  // The unsaved formula is drawn by KaTeX in the preview too.
  await waitFor(() => expect(screen.getByTestId('view-en').querySelector('[data-latex] .katex')).not.toBeNull());

  // A click on the formula opens it for a change.
  fireEvent.click(q.querySelector<HTMLElement>('[data-type="inline-math"]')!);
  const again = await formulaDialog();
  const latex = within(again).getByRole('textbox', { name: /LaTeX/, hidden: true });
  expect(latex).toHaveValue('x^2');
  await user.clear(latex);
  await user.type(latex, '\\frac{{1}{{2}');
  await user.click(within(again).getByRole('button', { name: 'Update', hidden: true }));
  await waitFor(() => expect(q.editor.getHTML()).toContain('data-latex="\\frac{1}{2}"'));
  expect(q.editor.getHTML()).not.toContain('x^2');
});

test.each([
  ['en', 'Insert image', 'Only PNG, JPEG or WebP images can be uploaded', 'The image is larger than 1 MB'],
  ['hi', 'चित्र डालें', 'केवल PNG, JPEG या WebP चित्र अपलोड किए जा सकते हैं', 'चित्र 1 MB से बड़ा है'],
] as const)('%s: images are checked before upload (type, 1 MiB); a good one is uploaded and inserted', async (lang, label, typeMsg, sizeMsg) => {
  const api = server();
  const user = userEvent.setup({ applyAccept: false });
  await openEditor('/question-editor', lang);
  const input = screen.getAllByLabelText(label)[0]! as HTMLInputElement;
  expect(input.type).toBe('file');
  await user.upload(input, new File(['<html></html>'], 'page.html', { type: 'text/html' }));
  expect(await screen.findByText(typeMsg)).toBeInTheDocument();
  await user.upload(input, new File([new Uint8Array(1_048_577)], 'big.png', { type: 'image/png' }));
  expect(await screen.findByText(sizeMsg)).toBeInTheDocument();
  expect(writes(api, '/media')).toEqual([]);
  await user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'ok.png', { type: 'image/png' }));
  const q = await box(lang === 'en' ? 'Question' : 'प्रश्न');
  await waitFor(() => expect(q.editor.getHTML()).toContain(`<img src="/media/${'a'.repeat(64)}.png"`));
  expect(writes(api, '/media')).toHaveLength(1);
});

test('a saved question loads by ?id=; Reset goes back to it; review steps go through updateStatus, Reject asks a reason', async () => {
  const api = server();
  const user = userEvent.setup();
  await openEditor('/question-editor?id=q1');
  await waitFor(async () => expect((await box('Option A')).editor.getHTML()).toBe('<p>Delhi</p>'));
  expect(screen.getByRole('radio', { name: 'Option A is correct' })).toBeChecked();
  expect(screen.getByLabelText('Status: Pending')).toBeInTheDocument();

  await write('Option A', '<p>Changed</p>');
  // Unsaved edits: the status waits for a save.
  expect(screen.getByRole('button', { name: 'Mark reviewed' })).toBeDisabled();
  await user.click(screen.getByRole('button', { name: 'Reset' }));
  await waitFor(async () => expect((await box('Option A')).editor.getHTML()).toBe('<p>Delhi</p>'));

  await user.click(screen.getByRole('button', { name: 'Mark reviewed' }));
  expect(await screen.findByText('Question status updated successfully')).toBeInTheDocument();
  expect(writes(api, '/question/updateStatus')[0]!.body).toEqual({ id: 'q1', st: 'REVIEWED' });
  expect(await screen.findByLabelText('Status: Reviewed')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();

  await user.click(screen.getByRole('button', { name: 'Reject' }));
  const dialog = await screen.findByRole('dialog', { name: 'Reject the question' });
  await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
  expect(await within(dialog).findByText('Give a reason for rejecting the question')).toBeInTheDocument();
  expect(writes(api, '/question/updateStatus')).toHaveLength(1);
  await user.type(within(dialog).getByRole('textbox', { name: /Reason for rejecting/ }), 'Two answers are right');
  await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
  await waitFor(() => expect(writes(api, '/question/updateStatus')).toHaveLength(2));
  expect(writes(api, '/question/updateStatus')[1]!.body).toEqual({ id: 'q1', st: 'REJECTED', reason: 'Two answers are right' });
  expect(await screen.findByText('Reason: Two answers are right')).toBeInTheDocument();
  // From REJECTED only back to pending (STATUS_NEXT).
  expect(screen.getByRole('button', { name: 'Back to pending' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
});

test('Hindi: review steps and the reason rule in Hindi', async () => {
  const api = server(view({ st: 'REVIEWED' }));
  const user = userEvent.setup();
  await openEditor('/question-editor?id=q1', 'hi');
  await user.click(await screen.findByRole('button', { name: 'अस्वीकार करें' }));
  const dialog = await screen.findByRole('dialog', { name: 'प्रश्न अस्वीकार करें' });
  await user.click(within(dialog).getByRole('button', { name: 'अस्वीकार करें' }));
  expect(await within(dialog).findByText('प्रश्न अस्वीकार करने का कारण लिखें')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'रद्द करें' }));
  await user.click(screen.getByRole('button', { name: 'स्वीकृत करें' }));
  expect(await screen.findByText('प्रश्न की स्थिति सफलतापूर्वक अपडेट हुई')).toBeInTheDocument();
  expect(writes(api, '/question/updateStatus')[0]!.body).toEqual({ id: 'q1', st: 'APPROVED' });
});

test('History lists versions; one shows its changes as words; Restore (confirmed) restores it and reloads the form', async () => {
  const api = server();
  const user = userEvent.setup();
  await openEditor('/question-editor?id=q1');
  await user.click(await screen.findByRole('button', { name: 'History' }));
  const drawer = await screen.findByRole('dialog', { name: 'Version history' });
  const versions = within(drawer).getByRole('list', { name: 'Versions' });
  expect(within(versions).getAllByRole('button').map((b) => b.textContent)).toEqual([expect.stringMatching(/^Version 2Edited.*Esha Editor/), expect.stringMatching(/^Version 1Created/)]);
  // The newest, against version 1: option A went from "New Delhi" to "Delhi".
  const changes = within(drawer).getByRole('region', { name: 'Changes in version 2' });
  expect(within(changes).getByText('Option A')).toBeInTheDocument();
  expect(changes.querySelector('del')).toHaveTextContent('New');
  expect(within(changes).queryByRole('button', { name: 'Restore' })).toBeNull();

  await user.click(within(versions).getByRole('button', { name: /Version 1/ }));
  await user.click(within(drawer).getByRole('button', { name: 'Restore' }));
  const confirm = await screen.findByRole('dialog', { name: 'Restore version 1?' });
  await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
  expect(await screen.findByText('Version restored successfully')).toBeInTheDocument();
  expect(writes(api, '/question/restoreQuestionVersion')[0]!.body).toEqual({ id: 'q1', version: 1 });
  await waitFor(async () => expect((await box('Option A')).editor.getHTML()).toBe('<p>New Delhi</p>'));
  // Restored content is the saved state: nothing to reset.
  expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
});

test('leaving with unsaved changes asks "Discard Changes?"; Keep editing stays, Discard goes', async () => {
  server();
  const user = userEvent.setup();
  const { router } = await renderWithApp(
    withPreviews(
      <>
        <a href="/question-list">Question List</a>
        <QuestionEditorPage />
      </>,
    ),
    { route: '/question-editor', namespaces: NS },
  );
  await write('Question', '<p>Half written</p>');
  await user.click(screen.getByRole('link', { name: 'Question List' }));
  const ask = await screen.findByRole('dialog', { name: 'Discard Changes?' });
  await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
  expect(router.state.location.pathname).toBe('/question-editor');
  await user.click(screen.getByRole('link', { name: 'Question List' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Discard Changes?' })).getByRole('button', { name: 'Discard' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/question-list'));
});

/**
 * Opened from the question list (docs/benchmarks.md "bench:authoring", 'pm:editor-open'): the list's row is drawn in the
 * first render, and the server's answer, when it comes, replaces it while nothing is edited.
 */
function FromTheList({ row }: { row: QuestionView }) {
  const qc = useQueryClient();
  const prefetch = usePrefetchQuestion();
  // The list's page in the cache and Edit's hover, before the editor is drawn.
  const [ready] = useState(() => {
    qc.setQueryData(['authoring', 'questions', {}, { l: 25, o: 0 }], { success: true, data: [row] });
    prefetch(row.id, row);
    return true;
  });
  return ready ? <QuestionEditor id={row.id} /> : null;
}

function slowServer(answer: QuestionView) {
  let release: () => void = () => {};
  const answered = new Promise<void>((r) => (release = r));
  const api = mockApi(async (c: Call) => {
    if (c.path === '/tag') return json({ success: true, data: TAGS[c.query.get('key') as Tag['key']] ?? [] });
    if (c.path === `/question/${answer.id}` && c.method === 'GET') {
      await answered;
      return json({ success: true, data: answer });
    }
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  return { api, release };
}

test("opened from the list, the list's copy is drawn at once and the server's newer copy replaces it", async () => {
  const { release } = slowServer(view({ q: '<p>Capital of Bharat?</p>', version: 3 }));
  await renderWithApp(withPreviews(<FromTheList row={view()} />), { route: '/question-editor', namespaces: NS });
  // Drawn from the list's row while the server has not answered yet.
  expect((await box('Question')).textContent).toBe('Capital of India?');
  act(() => release());
  await waitFor(async () => expect((await box('Question')).textContent).toBe('Capital of Bharat?'));
  expect(screen.queryByText(/unsaved changes/i)).toBeNull();
});

test("opened from the list and edited before the server answers, the editor's text is kept", async () => {
  const { api, release } = slowServer(view({ q: '<p>Capital of Bharat?</p>', version: 3 }));
  await renderWithApp(withPreviews(<FromTheList row={view()} />), { route: '/question-editor', namespaces: NS });
  await write('Question', '<p>Capital city of India?</p>');
  act(() => release());
  await waitFor(() => expect(api.calls.some((c) => c.path === '/question/q1')).toBe(true));
  await new Promise((r) => setTimeout(r, 50));
  expect((await box('Question')).textContent).toBe('Capital city of India?');
});

/**
 * The server of PATCH /api/question as it answers two editors (docs/authoring.md, "Two editors at
 * once"): a save from the current version is stored as the next one; a save from an older version
 * is refused 409 with the current question. `otherEditorSaves` is the other editor's save.
 */
function versionedServer(stored: QuestionView) {
  let current = stored;
  const api = mockApi((c: Call) => {
    if (c.path === '/tag') return json({ success: true, data: TAGS[c.query.get('key') as Tag['key']] ?? [] });
    if (c.path === `/question/${current.id}` && c.method === 'GET') return json({ success: true, data: current });
    if (c.path === '/question' && c.method === 'PATCH') {
      const body = c.body as QuestionInput & { version: number };
      if (body.version !== current.version) return json({ success: false, code: 'CONFLICT', msg: MSG.questionChanged, current }, 409);
      current = { ...current, ...body, version: current.version + 1, updatedBy: 'me' } as QuestionView;
      return json({ success: true, id: current.id, msg: 'Question updated successfully', data: current });
    }
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  return { api, now: () => current, otherEditorSaves: (change: Partial<QuestionView>) => (current = { ...current, ...change, version: current.version + 1, updatedBy: 'other' }) };
}

test.each([
  ['en', 'Save', 'Choose the version to keep', 'Your version (this device)', 'Saved version (server)', 'Keep my version', 'Question updated successfully'],
  ['hi', 'सहेजें', 'रखने के लिए संस्करण चुनें', 'आपका संस्करण (यह डिवाइस)', 'सहेजा गया संस्करण (सर्वर)', 'मेरा संस्करण रखें', 'प्रश्न सफलतापूर्वक अपडेट किया गया'],
] as const)('%s: another editor saved first: the save is refused, both versions are shown, nothing is overwritten until the editor keeps their own', async (lang, save, title, mine, theirs, keepMine, updated) => {
  const server = versionedServer(view({ version: 2 }));
  const user = userEvent.setup();
  await openEditor('/question-editor?id=q1', lang);
  const option = (k: string) => (lang === 'en' ? `Option ${k}` : `विकल्प ${k}`);
  await waitFor(async () => expect((await box(option('A'))).editor.getHTML()).toBe('<p>Delhi</p>'));
  server.otherEditorSaves({ q: '<p>Capital of Bharat?</p>' });

  await write(option('A'), '<p>New Delhi</p>');
  await user.click(screen.getByRole('button', { name: save }));
  const dialog = await screen.findByRole('dialog', { name: title });
  // Sent from the version it was loaded as; the other editor's words are still the server's.
  expect(writes(server.api)[0]!.body).toMatchObject({ id: 'q1', version: 2, ops: { a: '<p>New Delhi</p>' } });
  expect(server.now()).toMatchObject({ version: 3, q: '<p>Capital of Bharat?</p>', ops: { a: '<p>Delhi</p>' } });
  const [own, other] = within(dialog).getAllByTestId('conflict-version');
  expect(within(own!).getByRole('heading', { name: mine })).toBeInTheDocument();
  expect(own).toHaveTextContent('Capital of India?');
  expect(own).toHaveTextContent('a) New Delhi');
  expect(within(other!).getByRole('heading', { name: theirs })).toBeInTheDocument();
  expect(other).toHaveTextContent('Capital of Bharat?');
  expect(other).toHaveTextContent('a) Delhi');
  expect(screen.queryByText(updated)).toBeNull();

  // Keeping their own: saved on top of the other editor's version, as an ordinary save.
  await user.click(within(dialog).getByRole('button', { name: keepMine }));
  expect(await screen.findByText(updated)).toBeInTheDocument();
  expect(writes(server.api)).toHaveLength(2);
  expect(writes(server.api)[1]!.body).toMatchObject({ id: 'q1', version: 3, q: '<p>Capital of India?</p>', ops: { a: '<p>New Delhi</p>' } });
  expect(server.now()).toMatchObject({ version: 4, q: '<p>Capital of India?</p>', updatedBy: 'me' });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: title })).toBeNull());
});

test("another editor saved first and the editor keeps theirs: the form shows it, nothing is sent; the next save goes from that version", async () => {
  const server = versionedServer(view({ version: 2 }));
  const user = userEvent.setup();
  await openEditor('/question-editor?id=q1');
  await waitFor(async () => expect((await box('Option A')).editor.getHTML()).toBe('<p>Delhi</p>'));
  server.otherEditorSaves({ q: '<p>Capital of Bharat?</p>' });
  await write('Option A', '<p>New Delhi</p>');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  const dialog = await screen.findByRole('dialog', { name: 'Choose the version to keep' });
  await user.click(within(dialog).getByRole('button', { name: 'Keep the saved version' }));
  await waitFor(async () => expect((await box('Question')).textContent).toBe('Capital of Bharat?'));
  expect((await box('Option A')).editor.getHTML()).toBe('<p>Delhi</p>');
  expect(writes(server.api)).toHaveLength(1);
  expect(server.now()).toMatchObject({ version: 3, q: '<p>Capital of Bharat?</p>', updatedBy: 'other' });

  await write('Option B', '<p>Bombay</p>');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Question updated successfully')).toBeInTheDocument();
  expect(writes(server.api)[1]!.body).toMatchObject({ version: 3, q: '<p>Capital of Bharat?</p>', ops: { b: '<p>Bombay</p>' } });
});
