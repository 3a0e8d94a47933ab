import { expect, test } from 'vitest';
import { matchesSearch, searchKey } from './search';

/* docs/exams.md "Search": case-, accent- and spelling-variant-insensitive, in English and Hindi. */

test('case and Latin accents do not matter', () => {
  expect(searchKey('  SSC   Mock ')).toBe('ssc mock');
  expect(matchesSearch('resume', ['Résumé writing'])).toBe(true);
  expect(matchesSearch('GENERAL knowledge', ['Practice Set: General Knowledge and Arithmetic'])).toBe(true);
});

test('the ways of writing the same Hindi word match each other', () => {
  // Anusvara and a nasal consonant with virama; chandrabindu; nukta.
  expect(searchKey('हिन्दी')).toBe(searchKey('हिंदी'));
  expect(matchesSearch('हिन्दी', ['हिंदी भाषा'])).toBe(true);
  expect(matchesSearch('हिंदी', ['हिन्दी व्याकरण'])).toBe(true);
  expect(searchKey('माँ')).toBe(searchKey('मां'));
  expect(matchesSearch('जरूरी', ['ज़रूरी प्रश्न'])).toBe(true);
  // The vowel signs stay: a different word is not found.
  expect(matchesSearch('हिंदू', ['हिंदी भाषा'])).toBe(false);
});

test('every word must be found, in any of the texts; an empty query finds everything', () => {
  const texts = ['SSC Mock Test 1', 'Reasoning', 'तर्कशक्ति'];
  expect(matchesSearch('ssc reasoning', texts)).toBe(true);
  expect(matchesSearch('ssc तर्कशक्ति', texts)).toBe(true);
  expect(matchesSearch('ssc history', texts)).toBe(false);
  expect(matchesSearch('   ', texts)).toBe(true);
});
