import type { CSSProperties } from 'react';

export type Accent = 'indigo' | 'teal' | 'orange';

/**
 * The strong shade of each accent, used for button fills and coloured text. Mantine's usual
 * shade 6 is too light under white or on a tint (teal 6 and orange 6 give under 3:1), so these
 * keep at least 4.5:1 (WCAG 1.4.3); orange has no such shade, so its strong colour is red 9.
 */
const STRONG: Record<Accent, string> = { indigo: 'indigo-8', teal: 'teal-9', orange: 'red-9' };

/** CSS variables for one accent: --accent (strong), --accent-light (tint). */
export function accentVars(accent: Accent): CSSProperties {
  return {
    '--accent': `var(--mantine-color-${STRONG[accent]})`,
    '--accent-light': `var(--mantine-color-${accent}-0)`,
  } as CSSProperties;
}
