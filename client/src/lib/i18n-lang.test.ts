import { afterEach, expect, test, vi } from 'vitest';

/* docs/exams.md "Accessibility": <html lang> follows the chosen language, from the start of a reload and on change. */

afterEach(() => {
  localStorage.clear();
  document.documentElement.lang = 'en';
});

test('a reload with Hindi stored: <html lang="hi"> as soon as the i18n module runs, before anything renders', async () => {
  vi.resetModules();
  localStorage.setItem('lang', 'hi');
  document.documentElement.lang = 'en'; // as index.html has it
  const { languageReady } = await import('./i18n');
  expect(document.documentElement.lang).toBe('hi');
  expect(document.cookie).toMatch(/(?:^|; )lang=hi(?:;|$)/);
  // i18next itself is not reset between tests (it is a dependency, not a module of ours): let
  // this init finish here, so that its late 'languageChanged' cannot land in the next test.
  await languageReady();
  expect(document.documentElement.lang).toBe('hi');
});

test('changing the language changes <html lang> and remembers the choice', async () => {
  vi.resetModules();
  // English chosen before (another file of this worker may have left Hindi somewhere).
  localStorage.setItem('lang', 'en');
  sessionStorage.clear();
  document.documentElement.lang = 'en';
  const { switchLanguage, languageReady } = await import('./i18n');
  expect(document.documentElement.lang).toBe('en');
  await languageReady();
  expect(document.documentElement.lang).toBe('en');
  await switchLanguage('hi');
  expect(document.documentElement.lang).toBe('hi');
  expect(localStorage.getItem('lang')).toBe('hi');
  // The server learns the choice too (it sends a Hindi reader the shell, not the English home page).
  expect(document.cookie).toMatch(/(?:^|; )lang=hi(?:;|$)/);
  await switchLanguage('en');
  expect(document.documentElement.lang).toBe('en');
  expect(document.cookie).toMatch(/(?:^|; )lang=en(?:;|$)/);
});
