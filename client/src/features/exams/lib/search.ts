/*
 * The exam list's search (docs/exams.md "Search"): a set is found by its title and by the names,
 * in English and Hindi, of the subjects, exams and classes of its questions and of its sections.
 * What the learner types and what is searched are compared as search keys, so that case, Latin
 * accents and the common ways of writing the same Hindi word do not matter.
 */

const NASAL_CONSONANT_BEFORE_CONSONANT = /[\u0919\u091E\u0923\u0928\u092E]\u094D(?=[\u0915-\u0939])/g;

/**
 * A text as the search compares it: Unicode-decomposed; Latin accents dropped (é → e); in
 * Devanagari the nukta dropped (ज़ → ज), chandrabindu read as anusvara (ँ → ं), and a nasal
 * consonant with virama before a consonant read as anusvara (हिन्दी → हिंदी, as both are
 * written); lower case; whitespace runs as one space.
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036F\u093C]/g, '')
    .replace(/\u0901/g, '\u0902')
    .replace(NASAL_CONSONANT_BEFORE_CONSONANT, '\u0902')
    .toLocaleLowerCase('en')
    .replace(/\s+/g, ' ')
    .trim()
    .normalize('NFC');
}

/**
 * Whether a set whose searchable texts are `texts` matches `query`: every word of the query is in
 * one of the texts (so "ssc reasoning" finds the SSC mock with a Reasoning section). An empty
 * query matches everything.
 */
export function matchesSearch(query: string, texts: readonly string[]): boolean {
  const words = searchKey(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const keys = texts.map(searchKey);
  return words.every((w) => keys.some((k) => k.includes(w)));
}
