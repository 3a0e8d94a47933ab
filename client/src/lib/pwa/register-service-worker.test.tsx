import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RegisterSWOptions } from 'virtual:pwa-register';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { renderWithApp } from '../../testing/render';
import { registerServiceWorker, UPDATE_CHECK_MS } from './register-service-worker';

// vite-plugin-pwa's registerSW (its virtual module exists only in a build with the plugin).
const pwa = {
  options: undefined as RegisterSWOptions | undefined,
  updateServiceWorker: vi.fn<(reload?: boolean) => Promise<void>>(),
};
const registerSW = (options: RegisterSWOptions = {}) => {
  pwa.options = options;
  return pwa.updateServiceWorker;
};

const TEXT_EN = 'Update available for the app. Would you like to update?';
const TEXT_HI = 'ऐप के लिए अपडेट उपलब्ध है। क्या आप अपडेट करना चाहेंगे?';

beforeEach(() => {
  pwa.options = undefined;
  pwa.updateServiceWorker.mockReset();
  pwa.updateServiceWorker.mockReturnValue(new Promise<void>(() => undefined));
});
afterEach(() => {
  vi.useRealTimers();
  // Mantine's notification store outlives a render: start each test without a prompt.
  act(() => notifications.clean());
});

test('registers at once (it is called when the app is already stable) and prompts when a new version waits', async () => {
  await renderWithApp(<div />);
  registerServiceWorker(registerSW);
  expect(pwa.options?.immediate).toBe(true);
  expect(screen.queryByText(TEXT_EN)).not.toBeInTheDocument();

  pwa.options?.onNeedRefresh?.();
  const prompt = await screen.findByTestId('update-prompt');
  expect(prompt).toHaveTextContent(TEXT_EN);

  // Keyboard: the Update button is reachable with Tab and activated with Enter.
  const user = userEvent.setup();
  const update = screen.getByRole('button', { name: 'Update' });
  while (document.activeElement !== update) await user.tab();
  await user.keyboard('{Enter}');
  // Update asks the waiting worker to take over; vite-plugin-pwa reloads once it controls the page.
  expect(pwa.updateServiceWorker).toHaveBeenCalledTimes(1);
  expect(pwa.updateServiceWorker).toHaveBeenCalledWith(true);
  expect(screen.getByRole('button', { name: 'Not now' })).toBeDisabled();
});

test('"Not now" dismisses the prompt without updating', async () => {
  await renderWithApp(<div />);
  registerServiceWorker(registerSW);
  pwa.options?.onNeedRefresh?.();
  await screen.findByText(TEXT_EN);
  await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
  await vi.waitFor(() => expect(screen.queryByText(TEXT_EN)).not.toBeInTheDocument());
  expect(pwa.updateServiceWorker).not.toHaveBeenCalled();
});

test('the prompt speaks Hindi when Hindi is chosen', async () => {
  await renderWithApp(<div />, { lang: 'hi' });
  registerServiceWorker(registerSW);
  pwa.options?.onNeedRefresh?.();
  expect(await screen.findByText(TEXT_HI)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'अपडेट करें' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'अभी नहीं' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'अभी नहीं' }));
});

test('a failed update leaves the prompt usable', async () => {
  pwa.updateServiceWorker.mockRejectedValueOnce(new Error('no worker'));
  await renderWithApp(<div />);
  registerServiceWorker(registerSW);
  pwa.options?.onNeedRefresh?.();
  await userEvent.click(await screen.findByRole('button', { name: 'Update' }));
  await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Not now' })).toBeEnabled());
  await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
});

test('an open app looks for a new version every hour while online', () => {
  vi.useFakeTimers();
  registerServiceWorker(registerSW);
  const registration = { installing: null, update: vi.fn(() => Promise.resolve()) };
  pwa.options?.onRegisteredSW?.('/sw.js', registration as unknown as ServiceWorkerRegistration);
  vi.advanceTimersByTime(UPDATE_CHECK_MS);
  expect(registration.update).toHaveBeenCalledTimes(1);

  const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  vi.advanceTimersByTime(UPDATE_CHECK_MS);
  expect(registration.update).toHaveBeenCalledTimes(1);
  online.mockRestore();
  vi.clearAllTimers();
});
