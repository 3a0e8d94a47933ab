import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach } from 'vitest';

// findBy… and waitFor wait up to 5 s: the unit suite runs two files at once on CI's two cores,
// and a screen that draws part of itself in a transition (the question editor) can take longer
// than the default second there. A test that expects something never shown still fails.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks what Mantine measures with (Mantine's own test setup does the same).
const { getComputedStyle } = window;
window.getComputedStyle = (elt) => getComputedStyle(elt);
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});
class ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserver;
// Mantine's autosizing Textarea listens for font loading on document.fonts, which jsdom lacks.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined, load: () => Promise.resolve([]), ready: Promise.resolve() },
  });
}
window.HTMLElement.prototype.scrollIntoView = () => undefined;
window.scrollTo = () => undefined;

afterEach(() => {
  // Notifications live in a store of the module graph the worker's files share: one left by a
  // test must not be on the next test's screen (it would be one more role="alert").
  notifications.clean();
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
