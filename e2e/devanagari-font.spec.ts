import { expect, test } from '@playwright/test';

/*
 * The app's Devanagari face (client/src/lib/devanagari-font.css) draws every Devanagari
 * character in English mode too, so a phone without a system Devanagari font shows no empty
 * boxes; its unicode-range keeps the file from being fetched for Latin text. At 360 px.
 */

test.use({ viewport: { width: 360, height: 740 } });

test('in English the language switch draws "हिन्दी" with the app\'s Devanagari face, whose file is fetched for Devanagari only', async ({ page }) => {
  const fontFiles: string[] = [];
  page.on('response', (r) => {
    if (/noto-sans-devanagari-devanagari-\d+-normal[^/]*\.woff2$/.test(new URL(r.url()).pathname) && r.ok()) fontFiles.push(r.url());
  });
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/about-us');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const select = page.getByTestId('language-select').first();
  await expect(select.locator('option[value="hi"]')).toHaveText('हिन्दी');

  // The switch's font stack names the app's face (not a system-only stack).
  const family = await select.evaluate((el) => getComputedStyle(el).fontFamily);
  expect(family).toContain('Noto Sans Devanagari');

  // Every face of the family is limited to Devanagari (an English-only text never needs it).
  const ranges = await page.evaluate(() => [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === 'Noto Sans Devanagari').map((f) => f.unicodeRange));
  expect(ranges.length).toBeGreaterThanOrEqual(2);
  for (const r of ranges) expect(r).toMatch(/^U\+900-97F/i);

  // "हिन्दी" in the switch's own font resolves to the app's face, whose file then loads.
  const loaded = await select.evaluate(async (el) => {
    const style = getComputedStyle(el);
    const font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const faces = await document.fonts.load(font, 'हिन्दी');
    return faces.map((f) => `${f.family.replace(/["']/g, '')} ${f.status}`);
  });
  expect(loaded).toContain('Noto Sans Devanagari loaded');
  // Every face the text needs is ready: asked until the browser's font set has settled (a face
  // of the stack other than the one just loaded may still be on its way a moment after).
  await expect
    .poll(() =>
      select.evaluate((el) => {
        const style = getComputedStyle(el);
        return document.fonts.check(`${style.fontWeight} ${style.fontSize} ${style.fontFamily}`, 'हिन्दी');
      }),
    )
    .toBe(true);
  await expect.poll(() => fontFiles.length).toBeGreaterThan(0);
});
