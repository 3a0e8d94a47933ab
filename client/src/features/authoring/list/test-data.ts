import type { QuestionView } from '@pm/protocol/question';
import type { QuestionSetView } from '@pm/protocol/question-set';
import type { Tag } from '@pm/protocol/tag';

/* Test data of the question bank and question-set screens (list/ and sets/ tests). */

export function questionView(id: string, overrides: Partial<QuestionView> = {}): QuestionView {
  return {
    id,
    q: `<p>Question ${id}</p>`,
    ops: { a: '<p>Three</p>', b: '<p>Four</p>' },
    c: ['class-10'],
    d: '3',
    ca: ['b'],
    qt: 'mcq1',
    s: 'maths',
    t: ['algebra'],
    e: [],
    st: 'APPROVED',
    expl: '',
    trans: {},
    reason: null,
    version: 1,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    createdBy: 'editor',
    updatedBy: 'editor',
    ...overrides,
  };
}

export const TAGS: Record<Tag['key'], Tag[]> = {
  c: [{ key: 'c', tid: 'class-10', tags: { en: 'Class 10', hi: 'कक्षा 10' } }],
  s: [
    { key: 's', tid: 'maths', tags: { en: 'Mathematics', hi: 'गणित' } },
    { key: 's', tid: 'physics', tags: { en: 'Physics', hi: 'भौतिकी' } },
  ],
  t: [{ key: 't', tid: 'algebra', tags: { en: 'Algebra', hi: 'बीजगणित' } }],
  e: [{ key: 'e', tid: 'ssc', tags: { en: 'SSC CGL' } }],
};

export function setView(id: string, overrides: Partial<QuestionSetView> = {}): QuestionSetView {
  return {
    id,
    l: `Set ${id}`,
    mpq: 1,
    tm: 1,
    nm: 0.25,
    dur: 60,
    isM: true,
    free: false,
    inst: '<p>Read carefully</p>',
    q: ['q1'],
    sections: {},
    pts: 28_000_000,
    draft: false,
    langs: ['hi'],
    trans: {},
    published: true,
    version: 1,
    taken: 0,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}
