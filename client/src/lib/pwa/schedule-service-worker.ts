import { whenAppIsStable } from './when-app-is-stable';

/**
 * Registers the service worker once the app is stable (docs/glossary.md "Fixed values"), from a lazy chunk: the
 * registration code and workbox-window are not part of the first visit (bundle budget). Not in
 * `vite dev` (no worker is built there) nor where browsers have no service workers (or tests
 * under jsdom).
 */
export function scheduleServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  whenAppIsStable(() => {
    import('./start-service-worker')
      .then((m) => m.startServiceWorker())
      .catch((err: unknown) => console.warn('service worker registration failed', err));
  });
}
