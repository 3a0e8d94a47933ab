import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Editor } from '@tiptap/react';
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import { json, learnerSession, mockApi } from '../../testing/fetch-mock';
import { renderWithApp } from '../../testing/render';
import { closeQuestionDialog } from './question-dialog';
import { RootLayout } from './root-layout';

beforeAll(() => {
  // ProseMirror measures the selection with Range geometry, which jsdom lacks.
  Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect(0, 0, 0, 0);
});
afterEach(() => {
  act(() => closeQuestionDialog());
  vi.restoreAllMocks();
  clearSession();
});

async function chooseCreateQuestion(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Questions' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Create New Question', hidden: true }));
}

test('an editor\'s Create New Question opens the question editor in a dialog over the page; closing with edits asks first', async () => {
  setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false);
  mockApi((c) => (c.path === '/tag' ? json({ success: true, data: [] }) : json({ success: true })));
  const user = userEvent.setup();
  const { router } = await renderWithApp(<RootLayout />, { route: '/exam-list', namespaces: ['authoring-editor'] });
  await chooseCreateQuestion(user);

  const dialog = await screen.findByRole('dialog', { name: 'Create New Question' });
  const question = (await within(dialog).findByRole('textbox', { name: 'Question' }, { timeout: 10_000 })) as HTMLElement & { editor: Editor };
  // Over the page: the address stays.
  expect(router.state.location.pathname).toBe('/exam-list');

  await waitFor(() => expect(question.editor).toBeTruthy());
  act(() => {
    question.editor.commands.setContent('<p>Unsaved</p>', { emitUpdate: true });
  });
  await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!);
  const ask = await screen.findByRole('dialog', { name: 'Discard Changes?' });
  await user.click(within(ask).getByRole('button', { name: 'Discard' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create New Question' })).toBeNull());

  // Opened again: a fresh, empty editor.
  await chooseCreateQuestion(user);
  const again = (await within(await screen.findByRole('dialog', { name: 'Create New Question' })).findByRole('textbox', { name: 'Question' })) as HTMLElement & { editor: Editor };
  await waitFor(() => expect(again.editor?.isEmpty).toBe(true));
});

test('without QUESTION_EDITOR there is no Questions menu to open the dialog from (config/route-access)', async () => {
  setSession(learnerSession, false);
  mockApi(() => json({ success: true }));
  await renderWithApp(<RootLayout />, { route: '/exam-list' });
  expect(await screen.findByRole('link', { name: 'Home' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Questions' })).toBeNull();
  expect(screen.queryByRole('dialog', { name: 'Create New Question' })).toBeNull();
});
