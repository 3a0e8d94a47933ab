import type { CSSVariablesResolver } from '@mantine/core';

/*
 * Colour contrast (docs/exams.md "Accessibility"; WCAG 2.2 AA: 4.5:1 for text, what Lighthouse's accessibility
 * audit checks). Mantine's defaults fall short in a few places, measured on the built app:
 * dimmed text (gray.6 on white, 3.3:1), the primary indigo.6 with white text (4.3:1), filled
 * greens, yellows and oranges with white text (1.9–2.6:1), the light variant's text on its
 * background for green, teal, yellow, orange (2.7–3.8:1) and the outline and text colours of most
 * hues (2–4:1). The theme (provider.tsx) takes shade 7 as the primary shade and lets Mantine pick
 * black or white text on filled colours by luminance; the variables below darken what is still
 * too light. theme-contrast.test.ts checks every value against the backgrounds it is drawn on.
 */

/** Above this relative luminance a filled colour gets black text, below it white (both ≥ 4.5:1 either side of ~0.179). */
export const LUMINANCE_THRESHOLD = 0.179;

/** Text of the light variant (Badge, Button, Alert variant="light"), on shades 1 and 2 of its hue. */
export const LIGHT_TEXT: Record<string, string> = {
  red: '#ad2424',
  violet: '#5939b8',
  indigo: '#3249b7',
  blue: '#165a9a',
  cyan: '#0a697a',
  teal: '#077050',
  green: '#237133',
  lime: '#48730a',
  yellow: '#a15300',
  orange: '#a9380c',
};

/** Outline variant and coloured text (`c="green"`, anchors of a colour), on white. */
export const OUTLINE_TEXT: Record<string, string> = {
  red: '#c92a2a',
  blue: '#1971c2',
  cyan: '#0b7285',
  teal: '#087f5b',
  green: '#2b7a3b',
  lime: '#51810f',
  yellow: '#a26900',
  orange: '#c15005',
};

/** Dimmed text (descriptions, labels, footnotes): 5.2:1 on white, 4.7:1 on gray.1. */
export const DIMMED = '#666d74';
/** Error text of form fields: red.9, 5.5:1 on white. */
export const ERROR = 'var(--mantine-color-red-9)';

export const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED,
    // Links: indigo.8, 5.7:1 on white and 5.1:1 on the gray.1 of notes (indigo.7: 4.5:1 there).
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    '--mantine-color-error': ERROR,
    ...Object.fromEntries(Object.entries(LIGHT_TEXT).map(([hue, value]) => [`--mantine-color-${hue}-light-color`, value])),
    ...Object.fromEntries(Object.entries(OUTLINE_TEXT).flatMap(([hue, value]) => [
      [`--mantine-color-${hue}-outline`, value],
      [`--mantine-color-${hue}-text`, value],
    ])),
  },
  dark: {},
});
