import { useSyncExternalStore } from 'react';

/** Chrome's install prompt event (not in the DOM typings). */
type BeforeInstallPromptEvent = Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };

let deferred: BeforeInstallPromptEvent | null = null;
let listening = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/**
 * Starts listening for the browser's install offer. main.tsx calls it at start-up: Chrome fires
 * `beforeinstallprompt` once per page load, soon after the manifest and the service worker make
 * the app installable, long before anyone opens the drawer (a lazy chunk) that shows Install app.
 */
export function listenForInstallPrompt(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  // Met by the home page's start script before the app started (client/src/boot/start-after-paint.ts).
  if (window.pmInstallPrompt) {
    deferred = window.pmInstallPrompt as BeforeInstallPromptEvent;
    window.pmInstallPrompt = undefined;
  }
  window.addEventListener('beforeinstallprompt', (e) => {
    // Keep the mini-infobar away; the drawer's Install app entry offers it instead.
    e.preventDefault();
    deferred = e as BeforeInstallPromptEvent;
    emit();
  });
  // Installed (from the drawer or the browser's own menu): the entry goes away.
  window.addEventListener('appinstalled', () => {
    deferred = null;
    emit();
  });
}

/** `install` when the browser offers installation (the drawer's Install app), else null. */
export function useInstallPrompt(): (() => Promise<void>) | null {
  const available = useSyncExternalStore(
    (l) => {
      listenForInstallPrompt();
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => deferred !== null,
    () => false,
  );
  if (!available) return null;
  return async () => {
    const e = deferred;
    if (!e) return;
    // An offer can be shown once; after it the browser sends a new event if it offers again.
    deferred = null;
    emit();
    await e.prompt();
    await e.userChoice.catch(() => undefined);
  };
}
