import { act, renderHook } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { listenForInstallPrompt, useInstallPrompt } from './use-install-prompt';

/** What Chrome dispatches when the app (manifest + service worker) is installable. */
function installOffer(outcome = 'accepted') {
  const event = new Event('beforeinstallprompt', { cancelable: true });
  const prompt = vi.fn(() => Promise.resolve());
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome }) });
  return { event, prompt };
}

test('the offer is kept from start-up, shown by install(), and gone after installation', async () => {
  // main.tsx listens before any component (the drawer is a lazy chunk) has mounted.
  listenForInstallPrompt();
  const first = installOffer();
  window.dispatchEvent(first.event);
  // The browser's own mini-infobar is suppressed: the drawer offers Install app instead.
  expect(first.event.defaultPrevented).toBe(true);

  const { result } = renderHook(() => useInstallPrompt());
  expect(result.current).toBeTypeOf('function');
  await act(() => result.current?.());
  expect(first.prompt).toHaveBeenCalledTimes(1);
  // One offer, one prompt: the entry hides until the browser offers again.
  expect(result.current).toBeNull();

  act(() => {
    window.dispatchEvent(installOffer().event);
  });
  expect(result.current).toBeTypeOf('function');
  act(() => {
    window.dispatchEvent(new Event('appinstalled'));
  });
  expect(result.current).toBeNull();
});
