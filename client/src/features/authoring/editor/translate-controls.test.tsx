import { notifications } from '@mantine/notifications';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { englishSourceHash } from '@pm/protocol/translate';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { applyTranslation, emptyForm, type EditLang, markReviewed, formToInput, type QuestionForm, translationRequest } from './question-form';
import { TranslateControls } from './translate-controls';

const NS = ['authoring-editor', 'messages'];
beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

const FORMULA = '<span data-type="inline-math" data-latex="x^2"></span>';
function form(over: Partial<QuestionForm> = {}): QuestionForm {
  return {
    ...emptyForm(),
    id: 'q1',
    q: `<p>What is ${FORMULA} for x = 3?</p>`,
    ops: { a: '<p>6</p>', b: '<p>9</p>', c: '<p>3</p>', d: '<p>27</p>' },
    ca: ['b'],
    ...over,
  };
}

/** The translator as the server answers: its mode, and Generate's answer or refusal. */
function server(mode: 'real' | 'demo' | 'off', translate: (c: Call) => Response = (c) => demoAnswer(c)) {
  return mockApi((c) => {
    if (c.path === '/ai/translator') return json({ success: true, data: { mode, model: mode === 'off' ? null : 'm' } });
    if (c.path === '/ai/translateQuestionInHtml') return translate(c);
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}
function demoAnswer(c: Call) {
  const { content } = c.body as { content: Record<string, string> };
  const out = Object.fromEntries(Object.entries(content).map(([k, v]) => [k, v.replace('<p>', '<p>[demo hi] ')]));
  return json({ success: true, demo: true, data: [{ message: { role: 'assistant', content: JSON.stringify(out) } }] });
}

async function show(f: QuestionForm, lang: EditLang, ui: 'en' | 'hi' = 'en', saved: QuestionForm = f) {
  const onTranslated = vi.fn();
  await renderWithApp(<TranslateControls form={f} saved={saved} lang={lang} onTranslated={onTranslated} />, { lang: ui, namespaces: NS });
  return onTranslated;
}

test('Generate sends {q, o0..o3} for the language shown and hands back the texts; the demo translator is named as such', async () => {
  const api = server('demo');
  const onTranslated = await show(form(), 'hi');
  expect(await screen.findByText('Demo translator')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
  await waitFor(() => expect(onTranslated).toHaveBeenCalled());
  const call = api.calls.find((c) => c.path === '/ai/translateQuestionInHtml')!;
  expect(call.body).toEqual({ lang: 'hi', content: { q: form().q, o0: '<p>6</p>', o1: '<p>9</p>', o2: '<p>3</p>', o3: '<p>27</p>' } });
  expect(onTranslated).toHaveBeenCalledWith('hi', expect.objectContaining({ q: `<p>[demo hi] What is ${FORMULA} for x = 3?</p>`, o1: '<p>[demo hi] 9</p>' }));
  expect(screen.getByRole('status')).toHaveTextContent('not a translation');
});

test('in Hindi: a production server without a translator disables Generate and says why', async () => {
  server('off');
  await show(form(), 'hi', 'hi');
  expect(await screen.findByText('इस सर्वर पर अनुवाद सेवा कॉन्फ़िगर नहीं है (TRANSLATE_URL)। अनुवाद स्वयं लिखें।')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'जनरेट करें' })).toBeDisabled();
  expect(screen.queryByText('डेमो अनुवादक')).toBeNull();
});

test('§5: not into English, and not without English text (no request sent)', async () => {
  const api = server('real');
  await show(form(), 'en');
  await userEvent.click(await screen.findByRole('button', { name: 'Generate' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Selected language should not be english');
  cleanup();
  await renderWithApp(<TranslateControls form={form({ q: '<p></p>', ops: { a: '', b: '' } })} saved={form()} lang="hi" onTranslated={vi.fn()} />, { lang: 'hi', namespaces: NS });
  await userEvent.click(await screen.findByRole('button', { name: 'जनरेट करें' }));
  expect(await screen.findByText('अनुवाद के लिए कुछ नहीं है')).toBeInTheDocument();
  expect(api.calls.some((c) => c.path === '/ai/translateQuestionInHtml')).toBe(false);
});

test('a refused translation (a placeholder lost) is explained, in Hindi, and nothing is handed back', async () => {
  server('real', () => json({ success: false, code: 'BAD_GATEWAY', msg: 'The translation changed formulas, images or formatting, so it was refused and nothing was saved.', fields: ['q'] }, 502));
  const onTranslated = await show(form(), 'hi', 'hi');
  await userEvent.click(await screen.findByRole('button', { name: 'जनरेट करें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('अनुवाद ने सूत्र, चित्र या फ़ॉर्मेटिंग बदल दी');
  expect(onTranslated).not.toHaveBeenCalled();
});

test('the saved translation’s state: stale after an English change, a machine draft, missing — in both languages', async () => {
  server('real');
  const base = form();
  const madeFrom = englishSourceHash({ ...base, q: '<p>The old English</p>' });
  const stale = form({ trans: { hi: { q: '<p>पुराना</p>', ops: { a: '6', b: '9', c: '3', d: '27' }, ca: ['b'], src: madeFrom } } });
  await show(stale, 'hi');
  expect(await screen.findByText('Hindi: stale')).toBeInTheDocument();
  expect(screen.getByText(/The English text changed after this Hindi translation was made/)).toBeInTheDocument();

  cleanup();
  const draft = form({ trans: { hi: { q: '<p>मशीन</p>', ops: { a: '6', b: '9', c: '3', d: '27' }, ca: ['b'], src: englishSourceHash(base), mt: true } } });
  await show(draft, 'hi', 'hi');
  expect(await screen.findByText('हिंदी: मशीन ड्राफ़्ट')).toBeInTheDocument();
  expect(screen.queryByText('हिंदी: पुराना')).toBeNull();

  cleanup();
  await show(form(), 'en', 'hi');
  expect(await screen.findByText('हिंदी: अनुपलब्ध')).toBeInTheDocument();
});

test('the form: Generate’s texts go into the Hindi fields; a save marks the shown or edited translation reviewed', () => {
  const f = form();
  expect(translationRequest(f)).toEqual({ q: f.q, o0: '<p>6</p>', o1: '<p>9</p>', o2: '<p>3</p>', o3: '<p>27</p>' });
  const next = applyTranslation(f, 'hi', { q: '<p>क्या</p>', o0: '<p>६</p>', o1: '<p>९</p>', o2: '<p>३</p>', o3: '<p>२७</p>' });
  expect(next.trans.hi).toMatchObject({ q: '<p>क्या</p>', ops: { a: '<p>६</p>', b: '<p>९</p>', c: '<p>३</p>', d: '<p>२७</p>' } });
  // Edited (generated) since loaded: reviewed, even when saved with English shown.
  expect(markReviewed(formToInput(next), next, f, 'en').trans?.hi).toMatchObject({ reviewed: true });
  // Unchanged and not on screen: its state is left to the server (stays stale if it was).
  const loaded = { ...next, trans: { hi: { ...next.trans.hi!, src: 'old' } } };
  expect(markReviewed(formToInput(loaded), loaded, loaded, 'en').trans?.hi).not.toHaveProperty('reviewed');
  expect(markReviewed(formToInput(loaded), loaded, loaded, 'hi').trans?.hi).toMatchObject({ reviewed: true });
  // src and mt are never sent.
  expect(formToInput(loaded).trans?.hi).not.toHaveProperty('src');
});
