import { expect, test } from 'vitest';
import { partMarks, setText, setTotalMarks } from './set-text';

const set = {
  l: 'SSC Mock Test 1',
  inst: '<p>Read carefully</p>',
  trans: { hi: { l: 'एसएससी मॉक टेस्ट 1', inst: '<p>ध्यान से पढ़ें</p>' } },
  sections: {
    Reasoning: { names: { hi: 'तर्कशक्ति' } },
    Hindi: { names: { hi: 'हिंदी' }, sub: { Grammar: { names: { hi: 'व्याकरण' } }, Vocabulary: {} } },
  },
};

test('a set in Hindi: its title, instructions and part names where it has them, English where not', () => {
  const hi = setText(set, 'hi');
  expect([hi.l, hi.inst, hi.part('Reasoning'), hi.part('Hindi'), hi.part('Hindi', 'Grammar')]).toEqual(['एसएससी मॉक टेस्ट 1', '<p>ध्यान से पढ़ें</p>', 'तर्कशक्ति', 'हिंदी', 'व्याकरण']);
  // A sub-section without a Hindi name, and a name the set does not know, stay English.
  expect([hi.part('Hindi', 'Vocabulary'), hi.part('Unknown')]).toEqual(['Vocabulary', 'Unknown']);
  expect(hi.fallback).toBe(true);
  // A region tag of the language ('hi-IN') reads as Hindi.
  expect(setText(set, 'hi-IN').l).toBe('एसएससी मॉक टेस्ट 1');
});

test('English, a missing translation and a blank one all give the English texts', () => {
  const en = setText(set, 'en');
  expect([en.l, en.inst, en.part('Reasoning'), en.part('Hindi', 'Grammar'), en.fallback]).toEqual(['SSC Mock Test 1', '<p>Read carefully</p>', 'Reasoning', 'Grammar', false]);
  expect(setText({ ...set, trans: {} }, 'hi')).toMatchObject({ l: 'SSC Mock Test 1', inst: '<p>Read carefully</p>', fallback: true });
  expect(setText({ ...set, trans: { hi: { l: '  ', inst: '<p>&nbsp;</p>' } } }, 'hi')).toMatchObject({ l: 'SSC Mock Test 1', inst: '<p>Read carefully</p>' });
  // Documents stored before translations existed have none at all.
  expect(setText({ l: 'Old', inst: '', sections: { A: {} } }, 'hi')).toMatchObject({ l: 'Old', inst: '' });
});

test('total marks: every part its questions × marks per question; sub-sections for a section that has them', () => {
  expect(partMarks(3, 0.7)).toBe(2.1);
  expect(partMarks(0, 2)).toBe(0);
  const doc = {
    n: 0,
    mpq: 2,
    sections: {
      'General Knowledge': { ss: false, n: 8, mpq: 2 },
      Hindi: { ss: true, n: 18, mpq: 0, sub: { Grammar: { n: 7, mpq: 1 }, Vocabulary: { n: 11, mpq: 1 } } },
    },
  };
  expect(setTotalMarks(doc)).toBe(16 + 7 + 11);
});
