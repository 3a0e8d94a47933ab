import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { INTERACTIVE_EVENT } from '../app/layout/page-interactive';

/**
 * The start script of the pages drawn ahead (start-after-paint.ts), run on a page like the home
 * page the build writes. Its entry is a stand-in module that counts its starts; the service
 * worker container is the browser's, which jsdom does not have, so it is given a recorder.
 */
const ENTRY = '/client/src/boot/start-after-paint.fixture-entry.ts';
const w = globalThis as unknown as { entryStarts?: number };
let registered: string[] = [];

function page(start: 'interaction' | null) {
  document.head.innerHTML = `<meta name="pm-app" content="${ENTRY} /assets/home-page-H1.js"${start ? ` data-start="${start}"` : ''}>`;
  document.body.innerHTML = `<div id="root" data-prerendered="/">
    <a href="/login">Login</a>
    <button type="button">Next slide</button>
    <select aria-label="Language"><option value="en" selected>English</option><option value="hi">हिन्दी</option></select>
  </div>`;
}

async function runStartScript() {
  vi.resetModules();
  await import('./start-after-paint');
}

const preloads = () => [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href'));
const entryStarted = () => vi.waitFor(() => expect(w.entryStarts).toBe(1));

beforeEach(() => {
  w.entryStarts = 0;
  registered = [];
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { controller: null, register: (url: string) => (registered.push(url), Promise.resolve()) },
  });
  vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] });
});

afterEach(() => {
  // The app answers: a script run by an earlier test stops holding presses on this window.
  document.dispatchEvent(new Event(INTERACTIVE_EVENT));
  vi.useRealTimers();
  sessionStorage.clear();
  localStorage.clear();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  delete window.pmInstallPrompt;
});

test('a first visit to the home page starts nothing until the visitor reaches for it, and registers the service worker', async () => {
  page('interaction');
  await runStartScript();
  await vi.advanceTimersByTimeAsync(5000);
  expect(preloads()).toEqual([]);
  expect(w.entryStarts).toBe(0);
  // Kept for offline use all the same.
  expect(registered).toEqual(['/sw.js']);

  document.querySelector('select')?.dispatchEvent(new Event('focusin', { bubbles: true }));
  expect(preloads()).toEqual(['/assets/home-page-H1.js']);
  vi.useRealTimers();
  await entryStarted();
});

test('a press on a button before the app answers is held, then played once when it does; a link is left to the browser', async () => {
  page('interaction');
  await runStartScript();
  const button = document.querySelector('button') as HTMLButtonElement;
  const pressed = vi.fn();
  button.addEventListener('click', pressed);

  const press = new MouseEvent('click', { bubbles: true, cancelable: true });
  expect(button.dispatchEvent(press)).toBe(false);
  expect(pressed).not.toHaveBeenCalled();
  vi.useRealTimers();
  await entryStarted();

  const link = document.querySelector('a') as HTMLAnchorElement;
  const followed = vi.fn();
  link.addEventListener('click', (e) => {
    followed(e.defaultPrevented);
    e.preventDefault(); // jsdom would try to navigate
  });
  link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  // It reached the link, not cancelled: the browser follows it.
  expect(followed).toHaveBeenCalledWith(false);

  document.dispatchEvent(new Event(INTERACTIVE_EVENT));
  expect(pressed).toHaveBeenCalledTimes(1);
  // From then on the app answers presses itself.
  button.click();
  expect(pressed).toHaveBeenCalledTimes(2);
});

test('a change of the language picker before the app answers is played again with the chosen value', async () => {
  page('interaction');
  await runStartScript();
  const select = document.querySelector('select') as HTMLSelectElement;
  const changes: string[] = [];
  select.addEventListener('change', () => changes.push(select.value));

  select.value = 'hi';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  expect(changes).toEqual([]);
  // Hydration may put the drawn value back; the held change sets the chosen one again.
  select.value = 'en';
  document.dispatchEvent(new Event(INTERACTIVE_EVENT));
  expect(changes).toEqual(['hi']);
  vi.useRealTimers();
  await entryStarted();
});

test('the browser\'s install offer met before the app started is kept for it', async () => {
  page('interaction');
  await runStartScript();
  const offer = new Event('beforeinstallprompt', { cancelable: true });
  window.dispatchEvent(offer);
  expect(offer.defaultPrevented).toBe(true);
  expect(window.pmInstallPrompt).toBe(offer);
});

test.each([
  ['a signed-in learner', () => sessionStorage.setItem('session', '{}')],
  ['a remembered session', () => localStorage.setItem('session', '{}')],
  ['a reader whose stored language is not the page\'s', () => localStorage.setItem('lang', 'hi')],
])('%s gets the app after the first paint, without waiting for a press', async (_who, arrange) => {
  document.documentElement.lang = 'en';
  arrange();
  page('interaction');
  await runStartScript();
  await vi.advanceTimersByTimeAsync(1000);
  expect(preloads()).toEqual(['/assets/home-page-H1.js']);
  expect(registered).toEqual([]); // the app registers it
  vi.useRealTimers();
  await entryStarted();
});

test('the other drawn pages start the app after the first paint', async () => {
  page(null);
  await runStartScript();
  expect(preloads()).toEqual([]);
  await vi.advanceTimersByTimeAsync(1000);
  expect(preloads()).toEqual(['/assets/home-page-H1.js']);
  vi.useRealTimers();
  await entryStarted();
  // Nothing is held there: the page is inert until the app has taken it over.
  const press = new MouseEvent('click', { bubbles: true, cancelable: true });
  document.querySelector('button')?.dispatchEvent(press);
  expect(press.defaultPrevented).toBe(false);
});

test('reaching for a link starts nothing: the browser follows it, and the next page starts its own app', async () => {
  page('interaction');
  await runStartScript();
  const link = document.querySelector('a') as HTMLAnchorElement;
  link.dispatchEvent(new Event('pointerdown', { bubbles: true }));
  link.dispatchEvent(new Event('focusin', { bubbles: true }));
  link.addEventListener('click', (e) => e.preventDefault()); // jsdom would try to navigate
  link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  await vi.advanceTimersByTimeAsync(5000);
  expect(preloads()).toEqual([]);
  expect(w.entryStarts).toBe(0);
});
