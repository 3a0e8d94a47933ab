import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import type { Editor } from '@tiptap/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { StaticPage, StaticPageKey, StaticPageLang, StaticPageVersion } from '@pm/protocol/static-page';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import StaticPagesPage from './static-pages-page';

const NS = ['admin', 'admin-content', 'messages'];
const UPDATED = Date.UTC(2026, 10, 20, 6, 30);

beforeEach(() => setSession({ ...learnerSession, permissions: 'SHOP_EDITOR', role: 'ADMIN' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

/** The server: the FAQ's English saved once (version 1), no Hindi text of its own; PUT and restore store a version. */
function server(saved: StaticPage[] = [{ key: 'faq', content: { en: '<p>Old answers</p>', hi: '' }, version: { en: 1, hi: 0 }, updatedAt: UPDATED }]) {
  const pages = [...saved];
  const versions: Record<string, StaticPageVersion[]> = {
    'faq:en': [{ version: 1, html: '<p>Old answers</p>', action: 'SAVE', restoredFrom: null, actorName: 'Admin', createdAt: UPDATED }],
  };
  const store = (key: StaticPageKey, lang: StaticPageLang, html: string, restoredFrom: number | null) => {
    const before = pages.find((p) => p.key === key) ?? { key, content: { en: '', hi: '' }, version: { en: 0, hi: 0 }, updatedAt: 0 };
    const version = before.version[lang] + 1;
    const page: StaticPage = { key, content: { ...before.content, [lang]: html }, version: { ...before.version, [lang]: version }, updatedAt: UPDATED + 60_000 };
    pages.splice(0, pages.length, ...pages.filter((p) => p.key !== key), page);
    versions[`${key}:${lang}`] = [{ version, html, action: restoredFrom ? 'RESTORE' : 'SAVE', restoredFrom, actorName: 'Admin', createdAt: UPDATED + 60_000 }, ...(versions[`${key}:${lang}`] ?? [])];
    return page;
  };
  return mockApi((c: Call) => {
    if (c.method === 'PUT' && c.path === '/static-page') {
      const body = c.body as { key: StaticPageKey; lang: StaticPageLang; html: string };
      return json({ success: true, msg: 'Page saved successfully', data: store(body.key, body.lang, body.html, null) });
    }
    if (c.method === 'POST' && c.path === '/static-page/restore') {
      const body = c.body as { key: StaticPageKey; lang: StaticPageLang; version: number };
      const old = versions[`${body.key}:${body.lang}`]?.find((v) => v.version === body.version);
      return json({ success: true, msg: 'Earlier version restored', data: store(body.key, body.lang, old!.html, body.version) });
    }
    const m = /^\/static-page\/(\w+)\/versions$/.exec(c.path);
    if (m) return json({ success: true, data: versions[`${m[1]}:${c.query.get('lang')}`] ?? [] });
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

test('a page never edited starts from its built-in text; saving sends one language {key, lang, html, baseVersion}', async () => {
  const api = server();
  await renderWithApp(<StaticPagesPage />, { namespaces: NS });

  expect(await screen.findByText(/^English: not edited yet/)).toBeInTheDocument();
  // The built-in About Us page, not an empty editor.
  const box = await editor('English');
  await waitFor(() => expect(box).toHaveTextContent('Pariksha Mitra means'));
  expect(box.querySelector('h2')?.textContent).toBe('About Us');
  const save = screen.getByRole('button', { name: 'Save English' });
  expect(save).toBeDisabled();

  await typeInto(box, ' Edited.');
  await waitFor(() => expect(save).toBeEnabled());
  await userEvent.setup().click(save);

  expect(await screen.findByText('Page saved successfully')).toBeInTheDocument();
  const put = api.calls.find((c) => c.method === 'PUT');
  expect(put?.path).toBe('/static-page');
  expect(put?.body).toMatchObject({ key: 'about', lang: 'en', baseVersion: 0 });
  const html = (put?.body as { html: string }).html;
  expect(html.startsWith('<h2>About Us</h2><p>Pariksha Mitra means')).toBe(true);
  expect(html).toContain('Edited.');
  expect(Object.keys(put?.body as object)).toEqual(['key', 'lang', 'html', 'baseVersion']);
  expect(await screen.findByText(/^English: your text, version 1, saved/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Save English' })).toBeDisabled();
});

test('the Hindi tab starts from the built-in Hindi text even when English has a text of its own', async () => {
  server();
  const user = userEvent.setup();
  await renderWithApp(<StaticPagesPage />, { namespaces: NS });
  await user.click(await screen.findByRole('radio', { name: 'FAQ' }));
  expect(await editor('English', 'FAQ')).toHaveTextContent('Old answers');
  await user.click(screen.getByRole('tab', { name: 'Hindi' }));
  const hi = await editor('Hindi', 'FAQ');
  await waitFor(() => expect(hi.querySelector('h2')?.textContent).toBe('अक्सर पूछे जाने वाले प्रश्न'));
  expect(hi).not.toHaveTextContent('Old answers');
  expect(screen.getByText(/^Hindi: not edited yet/)).toBeInTheDocument();
});

test('versions are listed and the previous one is restored; switching pages with unsaved edits asks "Discard Changes?"', async () => {
  const api = server();
  const user = userEvent.setup();
  await renderWithApp(<StaticPagesPage />, { namespaces: NS });
  await user.click(await screen.findByRole('radio', { name: 'FAQ' }));
  const box = await editor('English', 'FAQ');
  await typeInto(box, ' and new ones');
  await user.click(screen.getByRole('button', { name: 'Save English' }));
  expect(await screen.findByText(/^English: your text, version 2/)).toBeInTheDocument();

  await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
  expect(await screen.findByText('Earlier version restored')).toBeInTheDocument();
  expect(api.calls.find((c) => c.path === '/static-page/restore')?.body).toEqual({ key: 'faq', lang: 'en', version: 1, baseVersion: 2 });
  expect(await screen.findByText(/^English: your text, version 3/)).toBeInTheDocument();
  await waitFor(async () => expect((await editor('English', 'FAQ')).textContent).toBe('Old answers'));
  expect(screen.getByText(/restored from version 1/)).toBeInTheDocument();

  await typeInto(await editor('English', 'FAQ'), ' changed');
  await user.click(screen.getByRole('radio', { name: 'Privacy Policy' }));
  expect(await screen.findByRole('dialog', { name: 'Discard Changes?' })).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Keep editing' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard Changes?' })).not.toBeInTheDocument());
  expect(screen.getByRole('radio', { name: 'FAQ' })).toBeChecked();
  await user.click(screen.getByRole('radio', { name: 'Privacy Policy' }));
  await user.click(await screen.findByRole('button', { name: 'Discard' }));
  expect(screen.getByRole('radio', { name: 'Privacy Policy' })).toBeChecked();
  await waitFor(async () => expect((await editor('English', 'Privacy Policy')).querySelector('h2')?.textContent).toBe('Privacy Policy'));
});
