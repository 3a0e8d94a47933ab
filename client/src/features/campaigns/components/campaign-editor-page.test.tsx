import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { clearSession, setSession } from '@/lib/session';
import { json, learnerSession, mockApi } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import { campaignFixture } from '../campaigns.fixture';
import CampaignEditorPage from './campaign-editor-page';

afterEach(() => {
  vi.restoreAllMocks();
  clearSession();
});

const REFUSED = campaignFixture({ id: 'c-5', status: 'REFUSED', reason: 'Please add the shop’s quote.', images: [] });

function server() {
  return mockApi(({ method, path }) => {
    if (method === 'GET' && path === '/campaigns/c-5') return json({ success: true, data: REFUSED });
    if (method === 'PATCH' && path === '/campaign/c-5') return json({ success: true, data: REFUSED });
    if (method === 'POST' && path === '/campaign/c-5/images') return json({ success: true, id: 'img-7', url: '/media/bbb.png', kind: 'CAMPAIGN' }, 201);
    if (method === 'POST' && path === '/campaign/c-5/submit') return json({ success: true, data: { ...REFUSED, status: 'SUBMITTED' } });
    return json({ success: false, msg: `unexpected ${method} ${path}` }, 500);
  });
}

const render = () =>
  renderWithApp(<Navigate to="/my-campaigns/c-5/edit" replace />, {
    route: '/start',
    namespaces: ['campaign'],
    extraRoutes: [
      { path: '/my-campaigns/:id/edit', element: <CampaignEditorPage /> },
      { path: '/my-campaigns', element: <div data-testid="my-campaigns" /> },
    ],
  });

test('a refused campaign: the reason, the images checked in the browser, then submitted again with the answer', async () => {
  setSession(learnerSession, false);
  const { calls } = server();
  await render();
  expect(await screen.findByTestId('refusal-reason')).toHaveTextContent('Please add the shop’s quote.');
  expect(screen.getByRole('textbox', { name: 'Title in English' })).toHaveValue('Books for Asha');
  expect(screen.getByTestId('editor-goal')).toHaveTextContent('Goal: ₹1,000');

  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  await userEvent.upload(input, new File(['GIF89a'], 'photo.png', { type: 'image/png' }));
  expect(await screen.findByTestId('image-problem')).toHaveTextContent('photo.png is not a PNG or JPEG image.');
  await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])], 'ok.png', { type: 'image/png' }));
  expect(await within(await screen.findByTestId('editor-images')).findByRole('img', { name: 'Image 1' })).toHaveAttribute('src', '/media/bbb.png');
  expect(calls.filter((c) => c.path === '/campaign/c-5/images')).toHaveLength(1);

  await userEvent.type(screen.getByRole('textbox', { name: 'Your answer to the trustee' }), 'Added the quote.');
  await userEvent.click(screen.getByRole('button', { name: 'Submit again' }));
  expect(await screen.findByTestId('my-campaigns')).toBeInTheDocument();
  const patch = calls.find((c) => c.method === 'PATCH')!;
  expect(patch.body).toMatchObject({ title: { en: 'Books for Asha', hi: 'आशा के लिए किताबें' }, cause: 'BOOKS', images: ['img-7'] });
  expect((patch.body as { need: unknown[] }).need).toEqual(REFUSED.need);
  expect(calls.find((c) => c.path === '/campaign/c-5/submit')!.body).toEqual({ note: 'Added the quote.' });
});
