import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Tag } from '@pm/protocol/tag';
import { clearSession, setSession } from '@/lib/session';
import { type Call, json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { TagDialog, tagDialogProblem } from './tag-dialog';

const NS = ['authoring-editor', 'messages'];
const SUBJECTS: Tag[] = [
  { key: 's', tid: 'maths', tags: { en: 'Mathematics' } },
  { key: 's', tid: 'physics', tags: { en: 'Physics', hi: 'भौतिकी' } },
];

beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

/** The server: the subjects; PATCH /tag answers with `patch` (by default: created). */
function server(patch?: (c: Call) => Response) {
  return mockApi((c: Call) => {
    if (c.path === '/tag' && c.method === 'GET') return json({ success: true, data: c.query.get('key') === 's' ? SUBJECTS : [] });
    if (c.path === '/tag' && c.method === 'PATCH') {
      if (patch) return patch(c);
      const b = c.body as { key: 's'; newTag: string; lang: string; tagId?: string | null };
      return json({ success: true, msg: 'Tag created successfully', data: { key: b.key, tid: b.tagId ?? 'chemistry', tags: { [b.lang]: b.newTag } } });
    }
    return json({ success: false, msg: 'unexpected' }, 500);
  });
}

async function open(lang: 'en' | 'hi', group: Tag['key'] | null = 's', onCreated = vi.fn()) {
  await renderWithApp(<TagDialog opened group={group} onClose={() => undefined} onCreated={onCreated} />, { lang, namespaces: NS });
  return { dialog: await screen.findByRole('dialog'), onCreated };
}
const patches = (api: { calls: Call[] }) => api.calls.filter((c) => c.method === 'PATCH');

test('the checks of spec §5 in the server\'s order', () => {
  const ok = { key: 's', exists: false, tagId: null, lang: 'en', name: 'Chemistry' };
  expect(tagDialogProblem(ok)).toBeNull();
  expect(tagDialogProblem({ ...ok, key: null, name: '' })).toBe('tagKeyMissing');
  expect(tagDialogProblem({ ...ok, name: '  ' })).toBe('tagNameRequired');
  expect(tagDialogProblem({ ...ok, lang: null })).toBe('tagNameRequired');
  expect(tagDialogProblem({ ...ok, exists: true })).toBe('tagExistingRequired');
  expect(tagDialogProblem({ ...ok, exists: true, tagId: 'maths' })).toBeNull();
});

test.each([
  ['en', 'Save', 'Tag group', 'New tag name', 'Tag exists in other language', ['Language and name are mandatory', 'Please select existing tag', 'Key missing. Cannot add tag without key']],
  ['hi', 'सहेजें', 'टैग समूह', 'नए टैग का नाम', 'टैग दूसरी भाषा में मौजूद है', ['भाषा और नाम आवश्यक हैं', 'कृपया मौजूदा टैग चुनें', 'कुंजी नहीं है। बिना कुंजी के टैग नहीं जोड़ा जा सकता']],
] as const)('%s: the three messages of spec §5, and nothing is sent', async (lang, save, group, name, exists, [nameMsg, existingMsg, keyMsg]) => {
  const api = server();
  const user = userEvent.setup();
  const { dialog } = await open(lang);
  const d = within(dialog);

  await user.click(d.getByRole('button', { name: save }));
  expect(await d.findByRole('alert')).toHaveTextContent(nameMsg);

  await user.type(d.getByRole('textbox', { name }), 'Chemistry');
  await user.click(d.getByRole('checkbox', { name: exists }));
  await user.click(d.getByRole('button', { name: save }));
  await waitFor(() => expect(d.getByRole('alert')).toHaveTextContent(existingMsg));

  await user.click(d.getByRole('checkbox', { name: exists }));
  // The group cleared: there is no key to add the tag under.
  expect(d.getByRole('combobox', { name: group })).toHaveValue(lang === 'en' ? 'Subject' : 'विषय');
  // Mantine's clear button is hidden from assistive technology (aria-hidden): found by its label, clicked as a pointer would.
  const clear = d.getByRole('combobox', { name: group }).parentElement!.querySelector<HTMLElement>('button[aria-label]')!;
  expect(clear).toHaveAttribute('aria-label', lang === 'en' ? 'Clear' : 'साफ़ करें');
  await user.click(clear);
  expect(d.getByRole('combobox', { name: group })).toHaveValue('');
  await user.click(d.getByRole('button', { name: save }));
  await waitFor(() => expect(d.getByRole('alert')).toHaveTextContent(keyMsg));
  expect(patches(api)).toEqual([]);
});

test('a new tag: PATCH /api/tag {key, newTag, lang}; "Tag created successfully"; the caller gets the tag', async () => {
  const api = server();
  const user = userEvent.setup();
  const { dialog, onCreated } = await open('en');
  await user.type(within(dialog).getByRole('textbox', { name: 'New tag name' }), '  Chemistry ');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Tag created successfully')).toBeInTheDocument();
  expect(patches(api)[0]!.body).toEqual({ key: 's', tagId: null, newTag: 'Chemistry', lang: 'en' });
  expect(onCreated).toHaveBeenCalledWith({ key: 's', tid: 'chemistry', tags: { en: 'Chemistry' } });
});

test('"Tag exists in other language": pick the existing tag by its English name, name it in Hindi; sent with its tagId', async () => {
  const api = server();
  const user = userEvent.setup();
  const { dialog } = await open('hi');
  const d = within(dialog);
  await user.click(d.getByRole('checkbox', { name: 'टैग दूसरी भाषा में मौजूद है' }));
  await user.click(d.getByRole('combobox', { name: 'मौजूदा टैग' }));
  await user.click(await screen.findByRole('option', { name: 'Mathematics', hidden: true }));
  // The new name's language starts as the interface language (Hindi here).
  await user.type(d.getByRole('textbox', { name: 'नए टैग का नाम' }), 'गणित');
  await user.click(d.getByRole('button', { name: 'सहेजें' }));
  expect(await screen.findByText('टैग सफलतापूर्वक बनाया गया')).toBeInTheDocument();
  expect(patches(api)[0]!.body).toEqual({ key: 's', tagId: 'maths', newTag: 'गणित', lang: 'hi' });
});

test('a refusal shows "Tag could not be created" with the server\'s reason, in the dialog', async () => {
  server(() => json({ success: false, msg: 'Tag does not exist:' }, 400));
  const user = userEvent.setup();
  const { dialog } = await open('en');
  await user.type(within(dialog).getByRole('textbox', { name: 'New tag name' }), 'Chemistry');
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('Tag could not be created: Tag does not exist:');
});
