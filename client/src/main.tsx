// First: no schema may parse before zod is told not to probe for eval (lib/csp.ts).
import './lib/csp';
// Mantine's base only: each component's styles come with the chunk that uses it
// (scripts/vite-plugin-mantine-css.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import './lib/devanagari-font.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { listenForInstallPrompt } from './hooks/use-install-prompt';
import i18n, { languageReady } from './lib/i18n';
import { whenIdle } from './lib/after-paint';
import { prepareLocaleData } from './lib/intl-format';
import { scheduleServiceWorker } from './lib/pwa/schedule-service-worker';
import { consumeLaunchQueue } from './lib/pwa/launch-files';

// Before anything else can delay it: the browser's install offer comes once per page load.
listenForInstallPrompt();
// A test file the installed app was opened with, kept until the exam list imports it (docs/live-tests.md "On the receiving phone").
consumeLaunchQueue();

const root = document.getElementById('root');
if (root) {
  // English is bundled; a stored Hindi choice fetches its strings and fonts first, so that the
  // first paint is already in Hindi (a failed fetch still renders, in English).
  void languageReady()
    .catch(() => undefined)
    .then(() => {
      const app = (
        <StrictMode>
          <App />
        </StrictMode>
      );
      // `/` and `/login` come drawn by the build in English for a first visit (scripts/vite-
      // plugin-prerender.ts), inert: the app hydrates that markup rather than drawing it again,
      // and the layout lets it be pressed once the page itself is hydrated (app/layout/page-
      // interactive.tsx). In Hindi, at another address or with a query the page reads, the
      // markup goes and the app draws the page itself.
      const { prerendered, prerenderedAnyQuery } = root.dataset;
      const drawnForHere = prerendered === window.location.pathname && (prerenderedAnyQuery !== undefined || window.location.search === '');
      // As a transition: React then works through the first render (or the hydration) in slices
      // of a few milliseconds, yielding to the browser between them, instead of one long task
      // that holds the phone's main thread (docs/benchmarks.md "bench:lighthouse": total blocking time).
      if (drawnForHere && i18n.language === 'en') startTransition(() => void hydrateRoot(root, app));
      else {
        if (prerendered) {
          root.replaceChildren();
          root.removeAttribute('inert');
        }
        const reactRoot = createRoot(root);
        startTransition(() => reactRoot.render(app));
      }
    });
  // The collator and formatters the first screens use, their data loaded off the main thread by
  // a worker, started in the first idle moment (the app waiting for its chunks) rather than
  // beside the entry's evaluation, whose phone core it would share.
  whenIdle(() => void prepareLocaleData());
  // The service worker (offline shell, update prompt) once the app is stable (docs/glossary.md "Fixed values").
  scheduleServiceWorker();
}
