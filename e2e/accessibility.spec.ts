import { expect, type Page, test } from '@playwright/test';
import { loginAs } from './helpers';

/**
 * docs/exams.md "Accessibility" on the main screens (home, login, exam list, test screen, result), in English and
 * Hindi: `<html lang>` follows the chosen language from the first render after a reload; every
 * control has an accessible name; text reaches WCAG AA contrast (4.5:1, 3:1 when large). The
 * names come from Chromium's accessibility tree (Playwright's ARIA snapshot); contrast is worked
 * out here from computed colours over the nearest opaque background, as axe does for plain
 * backgrounds (axe itself is not a dependency of this project).
 */

const CONTROL_ROLES = 'button|link|textbox|searchbox|checkbox|radio|switch|combobox|listbox|option|tab|menuitem|menuitemcheckbox|menuitemradio|slider|spinbutton|treeitem';

/** Controls in the accessibility tree without a name (`- button` or `- button [pressed]:` with no "…"). */
async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const unnamed = new RegExp(`^\\s*- (${CONTROL_ROLES})( \\[[^\\]]*\\])*:?\\s*$`);
  return snapshot.split('\n').filter((line) => unnamed.test(line));
}

/** Visible text below AA contrast (disabled controls are exempt, as in WCAG 1.4.3). */
function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (c: string): Rgba | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const [r = 0, g = 0, b = 0, a = 1] = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const over = (top: Rgba, below: Rgba): Rgba => ({ r: top.r * top.a + below.r * (1 - top.a), g: top.g * top.a + below.g * (1 - top.a), b: top.b * top.a + below.b * (1 - top.a), a: 1 });
    const luminance = ({ r, g, b }: Rgba) => {
      const f = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          layers.push(c);
          if (c.a >= 1) break;
        }
      }
      return layers.reverse().reduce((below, top) => over(top, below), { r: 255, g: 255, b: 255, a: 1 });
    };
    const failures: string[] = [];
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || !node.textContent?.trim()) continue;
      seen.add(el);
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
      if (el.closest('[aria-hidden="true"], [inert], :disabled, [data-disabled], [aria-disabled="true"]')) continue;
      const fg = parse(style.color);
      if (!fg) continue;
      const bg = background(el);
      const [a, b] = [luminance(over(fg, bg)), luminance(bg)];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
      if (ratio < (large ? 3 : 4.5)) failures.push(`${ratio.toFixed(2)}:1 "${node.textContent.trim().slice(0, 40)}" ${style.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)})`);
    }
    return failures;
  });
}

async function expectAccessible(page: Page, screen: string) {
  expect(await unnamedControls(page), `${screen}: controls without a name`).toEqual([]);
  expect(await lowContrastText(page), `${screen}: text below AA contrast`).toEqual([]);
}

/** Stores a language choice as the app does (client/src/lib/i18n.ts): for the app, and as a cookie for the server. */
async function chooseLanguage(page: Page, lang: 'en' | 'hi') {
  await page.evaluate((l) => {
    localStorage.setItem('lang', l);
    document.cookie = `lang=${l}; path=/; max-age=31536000; SameSite=Lax`;
  }, lang);
}

test('<html lang> follows the chosen language from the first render after a reload, and when it changes', async ({ page }) => {
  // What <html lang> says when the app first puts something on the page.
  await page.addInitScript(() => {
    const w = window as unknown as { langAtFirstRender?: string };
    new MutationObserver((_, observer) => {
      const root = document.getElementById('root');
      if (root && root.childElementCount > 0) {
        w.langAtFirstRender = document.documentElement.lang;
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/');
  await chooseLanguage(page, 'hi');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { langAtFirstRender?: string }).langAtFirstRender)).toBe('hi');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');

  // Changed with the navigation's language picker: at once, and after the next reload.
  await page.getByTestId('language-select').first().selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { langAtFirstRender?: string }).langAtFirstRender)).toBe('en');
});

const WORDS = {
  en: { take: 'Take Test', start: /^(Start|Resume) Test$/, submit: 'Submit', submitTest: 'Submit test' },
  hi: { take: 'टेस्ट दें', start: /^टेस्ट (शुरू करें|जारी रखें)$/, submit: 'जमा करें', submitTest: 'टेस्ट जमा करें' },
};

for (const lang of ['en', 'hi'] as const) {
  const words = WORDS[lang];
  test(`every control is named and text has AA contrast on the main screens (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    await chooseLanguage(page, lang);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expectAccessible(page, 'home');

    await page.goto('/login');
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expectAccessible(page, 'login');

    await chooseLanguage(page, 'en');
    await loginAs(page, 'learner');
    await chooseLanguage(page, lang);
    await page.goto('/exam-list');
    const card = page.getByTestId('exam-card-qs-practice-gk');
    await expect(card.getByTestId('availability')).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, 'exam list');

    await card.getByRole('link', { name: words.take }).click();
    const start = page.getByRole('button', { name: words.start });
    await expect(start).toBeEnabled();
    await expectAccessible(page, 'exam intro');
    await start.click();
    await expect(page.getByTestId('question-number')).toBeVisible();
    await expectAccessible(page, 'test screen');
    await page.getByRole('tabpanel').getByRole('radio').first().check();
    await page.getByRole('complementary').getByRole('button', { name: words.submit, exact: true }).click();
    const summary = page.getByRole('dialog', { name: lang === 'en' ? 'Exam summary' : 'परीक्षा सारांश' });
    await expect(summary).toBeVisible();
    await expectAccessible(page, 'submit summary');
    await summary.getByRole('button', { name: words.submitTest }).click();
    await expect(page.getByTestId('total-marks')).toBeVisible();
    await expectAccessible(page, 'result');
  });
}
