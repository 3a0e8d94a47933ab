import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { TranslateSetButton } from './translate-set-button';

const NS = ['authoring-bank', 'messages'];
beforeEach(() => setSession({ ...learnerSession, permissions: 'QUESTION_EDITOR', role: 'EDITOR' }, false));
afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
  act(() => notifications.clean());
});

test('the set’s questions go to generateInDiffLang; the outcome is counted, and a demo says so', async () => {
  const api = mockApi((c) => {
    if (c.path === '/ai/translator') return json({ success: true, data: { mode: 'demo', model: 'local-demo' } });
    if (c.path === '/question/generateInDiffLang')
      return json({ success: true, msg: 'Translations saved as drafts', translated: ['q1', 'q2'], skipped: ['q3'], refused: [], demo: true });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  await renderWithApp(<TranslateSetButton qids={['q1', 'q2', 'q3']} />, { namespaces: NS });
  await userEvent.click(await screen.findByRole('button', { name: 'Translate into Hindi' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Translations saved as drafts: 2 translated, 1 already current, 0 refused. This server uses the demo translator');
  const call = api.calls.find((c) => c.path === '/question/generateInDiffLang')!;
  expect(Object.fromEntries(call.query)).toEqual({ lcode: 'hi', lname: 'Hindi', qids: 'q1,q2,q3' });
});

test('in Hindi: a refusal is shown in Hindi; without a translator the button is off', async () => {
  mockApi((c) => {
    if (c.path === '/ai/translator') return json({ success: true, data: { mode: 'real', model: 'm' } });
    return json({ success: false, code: 'BAD_GATEWAY', msg: 'The translation service is busy (too many requests). Please try again in a minute.' }, 502);
  });
  await renderWithApp(<TranslateSetButton qids={['q1']} />, { lang: 'hi', namespaces: NS });
  await userEvent.click(await screen.findByRole('button', { name: 'हिंदी में अनुवाद करें' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('अनुवाद सेवा व्यस्त है');
});

test('a production server without a translator: the button is disabled with the reason', async () => {
  mockApi((c) => (c.path === '/ai/translator' ? json({ success: true, data: { mode: 'off', model: null } }) : json({ success: false, msg: 'unexpected' }, 500)));
  await renderWithApp(<TranslateSetButton qids={['q1']} />, { namespaces: NS });
  expect(await screen.findByText('Translation is not configured on this server (TRANSLATE_URL). Write the translation by hand.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Translate into Hindi' })).toBeDisabled();
});
