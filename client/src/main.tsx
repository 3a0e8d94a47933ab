// First: no schema may parse before zod is told not to probe for eval (lib/csp.ts).
import './lib/csp';
// Mantine's base only: each component's styles come with the chunk that uses it
// (scripts/vite-plugin-mantine-css.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@fontsource/noto-sans-devanagari/devanagari-400.css';
import '@fontsource/noto-sans-devanagari/devanagari-600.css';
import { StrictMode, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { listenForInstallPrompt } from './hooks/use-install-prompt';
import i18n, { languageReady } from './lib/i18n';
import { scheduleServiceWorker } from './lib/pwa/schedule-service-worker';

// Before anything else can delay it: the browser's install offer comes once per page load.
listenForInstallPrompt();

/** Lets the prerendered page be pressed once the app has taken it over (see below). */
function Interactive({ root }: { root: HTMLElement }) {
  useLayoutEffect(() => root.removeAttribute('inert'), [root]);
  return null;
}

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
          <Interactive root={root} />
        </StrictMode>
      );
      // `/` comes drawn by the build in English for a first visit (scripts/vite-plugin-prerender-
      // home.ts), inert until here: the app hydrates that markup rather than drawing it again.
      // In Hindi, or anywhere else, the markup goes and the app draws the page itself.
      if (root.dataset.prerendered === window.location.pathname && i18n.language === 'en') hydrateRoot(root, app);
      else {
        if (root.dataset.prerendered) root.replaceChildren();
        createRoot(root).render(app);
      }
    });
  // The service worker (offline shell, update prompt) once the app is stable (spec §9).
  scheduleServiceWorker();
}
