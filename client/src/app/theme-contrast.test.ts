import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, test } from 'vitest';
import { DIMMED, LIGHT_TEXT, LUMINANCE_THRESHOLD, OUTLINE_TEXT } from './theme-contrast';
import { PRIMARY_SHADE } from './provider';

/* docs/exams.md "Accessibility": every colour the theme draws text in reaches WCAG AA (4.5:1) on its background. */

const channel = (v: number) => {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};
const AA = 4.5;
const WHITE = '#ffffff';
const hues = Object.keys(DEFAULT_THEME.colors).filter((h) => h !== 'dark');
const shade = (hue: string, n: number) => DEFAULT_THEME.colors[hue as 'red'][n]!;

describe('theme colours against their backgrounds', () => {
  test.each(hues)('%s: filled, with the text colour Mantine picks by luminance', (hue) => {
    const fill = shade(hue, PRIMARY_SHADE);
    const text = luminance(fill) > LUMINANCE_THRESHOLD ? '#000000' : WHITE;
    expect(contrast(fill, text)).toBeGreaterThanOrEqual(AA);
  });

  test.each(hues)('%s: light variant text on shades 1 and 2 (hover)', (hue) => {
    const text = LIGHT_TEXT[hue] ?? shade(hue, 9);
    expect(contrast(text, shade(hue, 1))).toBeGreaterThanOrEqual(AA);
    expect(contrast(text, shade(hue, 2))).toBeGreaterThanOrEqual(AA);
  });

  test.each(hues)('%s: outline and coloured text on white', (hue) => {
    expect(contrast(OUTLINE_TEXT[hue] ?? shade(hue, PRIMARY_SHADE), WHITE)).toBeGreaterThanOrEqual(AA);
  });

  test('dimmed text on white and the light grays of cards and bars', () => {
    for (const bg of [WHITE, shade('gray', 0), shade('gray', 1)]) expect(contrast(DIMMED, bg)).toBeGreaterThanOrEqual(AA);
  });

  test('links (indigo.8) on white, the light grays of notes and the active link’s indigo.0', () => {
    for (const bg of [WHITE, shade('gray', 0), shade('gray', 1), shade('indigo', 0)]) expect(contrast(shade('indigo', 8), bg)).toBeGreaterThanOrEqual(AA);
  });
});
