import { expect, test } from 'vitest';
import { wordDiff } from './word-diff';

const show = (before: string, after: string) =>
  wordDiff(before, after)
    .map((p) => (p.kind === 'same' ? p.text : p.kind === 'added' ? `{+${p.text}+}` : `[-${p.text}-]`))
    .join('');

test('a changed word shows as removed and added; the rest as it was', () => {
  expect(show('The capital of India is Mumbai', 'The capital of India is Delhi')).toBe('The capital of India is [-Mumbai-]{+Delhi+}');
});

test('inserted and deleted words in the middle', () => {
  expect(show('water boils at 100 degrees', 'pure water boils at 100 degrees Celsius')).toBe('{+pure +}water boils at 100 degrees{+ Celsius+}');
  expect(show('a b c d', 'a d')).toBe('a [-b c -]d');
});

test('the parts join back into each text', () => {
  const before = 'एक दो तीन चार';
  const after = 'एक तीन पाँच चार छह';
  const parts = wordDiff(before, after);
  expect(parts.filter((p) => p.kind !== 'added').map((p) => p.text).join('')).toBe(before);
  expect(parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join('')).toBe(after);
});

test('equal texts are one unchanged part; from nothing everything is added', () => {
  expect(wordDiff('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
  expect(wordDiff('', 'new text')).toEqual([{ kind: 'added', text: 'new text' }]);
  expect(wordDiff('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
});
