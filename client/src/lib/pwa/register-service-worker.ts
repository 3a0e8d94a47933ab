import type { registerSW as RegisterSW } from 'virtual:pwa-register';

/** An open app asks for a new worker this often (the browser checks on navigations anyway). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the worker that vite-plugin-pwa generates (vite.config.ts; registerType 'prompt').
 * A new version installs in the background and then waits; the learner is asked
 * ('Update available for the app. Would you like to update?'). Update tells the waiting worker
 * to take over (SKIP_WAITING), and the page reloads once it controls the page.
 *
 * `registerSW` is vite-plugin-pwa's (start-service-worker.ts passes it in): its virtual module
 * exists only in a build with the plugin, and tests pass a stand-in.
 */
export function registerServiceWorker(registerSW: typeof RegisterSW): void {
  const updateServiceWorker = registerSW({
    // Called after the load event and an idle period already (schedule-service-worker.ts).
    immediate: true,
    // The prompt's code (and the Mantine parts it is drawn with) only when there is an update:
    // a first visit does not download them (docs/benchmarks.md "bench:bundle"). The worker that is waiting has them.
    onNeedRefresh: () =>
      void import('../../components/update-prompt')
        .then(({ showUpdatePrompt }) => showUpdatePrompt(() => updateServiceWorker(true)))
        .catch((err: unknown) => console.warn('the update prompt could not be loaded', err)),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        // Nothing to ask while offline or while a new worker is already installing.
        if (!navigator.onLine || registration.installing) return;
        registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
    onRegisterError: (err: unknown) => console.warn('service worker registration failed', err),
  });
}
