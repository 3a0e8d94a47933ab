import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import type { Editor } from '@tiptap/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { StaticPage } from '../../../../../sync-protocol/src/static-page';
import { clearSession, setSession } from '../../../lib/session';
import { type Call, json, learnerSession, mockApi } from '../../../testing/fetch-mock';
import { renderWithApp } from '../../../testing/render';
import StaticPagesPage from './static-pages-page';

const NS = ['admin', 'admin-content', 'messages'];
const UPDATED = Date.UTC(2026, 10, 20, 6, 30);

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

/** The server: FAQ saved once; a PUT stores and returns the page. */
function server(saved: StaticPage[] = [{ key: 'faq', content: { en: '<p>Old answers</p>', hi: '<p>पुराने उत्तर</p>' }, updatedAt: UPDATED }]) {
  const pages = [...saved];
  return mockApi((c: Call) => {
    if (c.method === 'PUT' && c.path === '/static-page') {
      const body = c.body as Pick<StaticPage, 'key' | 'content'>;
      const page = { ...body, updatedAt: UPDATED + 60_000 };
      pages.splice(0, pages.length, ...pages.filter((p) => p.key !== body.key), page);
      return json({ success: true, msg: 'Page saved successfully', data: page });
    }
    if (c.path === '/static-page') return json({ success: true, data: pages });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

const editor = (lang: 'English' | 'Hindi', page = 'About Us') => screen.findByRole('textbox', { name: `${page} in ${lang}` });

/**
 * Types into a rich-text editor. jsdom has no text input for contenteditable that ProseMirror
 * can read, so this goes through the editor instance tiptap keeps on its element for tests.
 */
async function typeInto(box: HTMLElement, text: string) {
  const { editor: e } = box as HTMLElement & { editor: Editor };
  act(() => {
    // At the end of the text; no focus(), whose scrolling jsdom cannot measure.
    e.chain().setTextSelection(e.state.doc.content.size).insertContent(text).run();
  });
}

test('a page never saved starts empty with a note; saving sends {key, content:{en,hi}} and says so', async () => {
  const api = server();
  const user = userEvent.setup();
  await renderWithApp(<StaticPagesPage />, { namespaces: NS });

  expect(await screen.findByText(/Not edited yet: the public page shows its built-in text/)).toBeInTheDocument();
  const save = screen.getByRole('button', { name: 'Save' });
  expect(save).toBeDisabled();

  await typeInto(await editor('English'), 'Who we are');
  await waitFor(() => expect(save).toBeEnabled());
  await user.click(screen.getByRole('tab', { name: 'Hindi' }));
  await typeInto(await editor('Hindi'), 'हम कौन हैं');
  await user.click(save);

  expect(await screen.findByText('Page saved successfully')).toBeInTheDocument();
  const put = api.calls.find((c) => c.method === 'PUT');
  expect(put?.path).toBe('/static-page');
  expect(put?.body).toEqual({ key: 'about', content: { en: '<p>Who we are</p>', hi: '<p>हम कौन हैं</p>' } });
  // Saved: the note turns into the time of the save, and nothing is left to save.
  expect(await screen.findByText(/^Last saved .*The public page shows this text\.$/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('a saved page loads into the editors with its time; switching away from unsaved edits asks "Discard Changes?"', async () => {
  server();
  const user = userEvent.setup();
  await renderWithApp(<StaticPagesPage />, { namespaces: NS });

  await user.click(await screen.findByRole('radio', { name: 'FAQ' }));
  expect(await editor('English', 'FAQ')).toHaveTextContent('Old answers');
  const when = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(UPDATED);
  expect(screen.getByText(`Last saved ${when}. The public page shows this text.`)).toBeInTheDocument();

  await typeInto(await editor('English', 'FAQ'), ' and new ones');
  await user.click(screen.getByRole('radio', { name: 'Privacy Policy' }));
  expect(await screen.findByRole('dialog', { name: 'Discard Changes?' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Keep editing' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard Changes?' })).not.toBeInTheDocument());
  expect(screen.getByRole('radio', { name: 'FAQ' })).toBeChecked();
  expect(await editor('English', 'FAQ')).toHaveTextContent('Old answers and new ones');

  await user.click(screen.getByRole('radio', { name: 'Privacy Policy' }));
  await user.click(await screen.findByRole('button', { name: 'Discard' }));
  expect((await editor('English', 'Privacy Policy')).textContent).toBe('');
  expect(screen.getByRole('radio', { name: 'Privacy Policy' })).toBeChecked();
  expect(screen.getByText(/Not edited yet/)).toBeInTheDocument();
});
