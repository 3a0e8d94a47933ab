import { beforeAll, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import i18n from '@/lib/i18n';
import { setView } from '../list/test-data';
import {
  checkSave,
  emptyForm,
  formParts,
  num,
  pickerToPts,
  ptsToPicker,
  type SetForm,
  sectionNameError,
  setState,
  toForm,
  toSave,
  totalMarks,
  totalMarksError,
  withPartQuestions,
} from './set-form';
import { isNewVersionRefusal, serverText, setRuleText } from './set-messages';

type T = Parameters<typeof setRuleText>[0];
let en: T;
let hi: T;
beforeAll(async () => {
  await i18n.loadLanguages(['en', 'hi']);
  await i18n.loadNamespaces(['authoring-bank', 'messages']);
  en = i18n.getFixedT('en', ['authoring-bank', 'messages']) as unknown as T;
  hi = i18n.getFixedT('hi', ['authoring-bank', 'messages']) as unknown as T;
});

const section = (name: string, extra: Partial<SetForm['sections'][number]> = {}): SetForm['sections'][number] => ({
  key: `k-${name}`,
  name,
  nameHi: '',
  ss: false,
  q: [],
  mpq: 2,
  tm: 10,
  nm: 0.5,
  subs: [],
  ...extra,
});
const messages = (f: SetForm, draft = true) => {
  const r = checkSave(f, { draft });
  return r.ok ? [] : r.issues.map((i) => i.message);
};

test('spec §5 Question set save: the three messages, in English and in Hindi', () => {
  const f = { ...emptyForm(), nm: -1 };
  const m = messages(f);
  expect(m).toEqual([
    'Question set cannot be saved without label',
    'Negative marking should be a positive number',
    'Question set cannot be saved without any section',
  ]);
  expect(m.map((x) => setRuleText(hi, x))).toEqual([
    'नाम के बिना प्रश्न सेट सहेजा नहीं जा सकता',
    'नकारात्मक अंकन एक धनात्मक संख्या होनी चाहिए',
    'किसी भी खंड के बिना प्रश्न सेट सहेजा नहीं जा सकता',
  ]);
  expect(m.map((x) => setRuleText(en, x))).toEqual(m);
  // A label and a section (or questions in Main) are enough.
  expect(messages({ ...emptyForm(), l: 'Weekly 1', sections: [section('Reasoning')] })).toEqual([]);
  expect(messages({ ...emptyForm(), l: 'Weekly 1', q: ['q1'] })).toEqual([]);
  // A section's negative marking too.
  expect(messages({ ...emptyForm(), l: 'W', sections: [section('Reasoning', { nm: -2 })] })).toEqual(['Negative marking should be a positive number']);
});

test('spec §5 Section name: invalid names, main and duplicates, in both languages', () => {
  expect(sectionNameError('Reasoning', ['Maths'])).toBeNull();
  expect(sectionNameError('  ', [])).toBe('Invalid section name');
  for (const n of ['q', 'mpq', 'tm', 'nm', 'none', 'NM']) expect(sectionNameError(n, [])).toBe('Invalid section name');
  const main = 'Section with this name cannot be created. Add question without section. It is automatically added to main section.';
  expect(sectionNameError('Main', [])).toBe(main);
  expect(sectionNameError('reasoning ', ['Reasoning'])).toBe('Duplicate section name.');
  expect(setRuleText(hi, 'Duplicate section name.')).toBe('खंड का नाम दोहराया गया है।');
  expect(setRuleText(hi, 'Invalid section name')).toBe('खंड का नाम अमान्य है');
  expect(setRuleText(hi, main)).toBe('इस नाम का खंड नहीं बनाया जा सकता। प्रश्न बिना खंड के जोड़ें। वह अपने आप मुख्य खंड में जुड़ जाएगा।');
  // Two sections of one name cannot both reach the save.
  expect(messages({ ...emptyForm(), l: 'W', sections: [section('Reasoning'), section('reasoning')] })).toEqual(['Duplicate section name.']);
});

test('spec §5 Selection limit: rebuilt in Hindi from the same numbers and names', () => {
  const f: SetForm = { ...emptyForm(), l: 'W', mpq: 2, tm: 4, q: ['a', 'b', 'c'] };
  expect(messages(f)).toEqual(['Only 2 questions are allowed in Main section']);
  expect(setRuleText(hi, 'Only 2 questions are allowed in Main section')).toBe('मुख्य खंड में केवल 2 प्रश्नों की अनुमति है');
  const g: SetForm = { ...emptyForm(), l: 'W', sections: [section('Reasoning', { mpq: 1, tm: 1, q: ['a', 'b'] })] };
  expect(messages(g)).toEqual(['Only 1 questions are allowed in Reasoning section']);
  expect(setRuleText(hi, messages(g)[0]!)).toBe('Reasoning खंड में केवल 1 प्रश्नों की अनुमति है');
  expect(setRuleText(en, messages(g)[0]!)).toBe('Only 1 questions are allowed in Reasoning section');
});

test('the save body: sections keyed by name in their order, sub-sections carry the marks (spec §4)', () => {
  const f: SetForm = {
    ...emptyForm(Date.UTC(2025, 0, 1, 10, 30)),
    l: ' Weekly 1 ',
    mpq: '2',
    tm: 20,
    nm: '',
    dur: 45,
    isM: true,
    q: ['m1'],
    langs: ['hi', 'mr'],
    sections: [
      section('Maths', { q: ['s1'] }),
      section('GK', { ss: true, mpq: 9, tm: 9, nm: 9, subs: [{ key: 'x', name: 'History', nameHi: '', q: ['h1'], mpq: 1, tm: 5, nm: 0.25 }] }),
    ],
  };
  const body = toSave(f, { draft: false });
  expect(body).toEqual({
    l: ' Weekly 1 ',
    mpq: 2,
    tm: 20,
    nm: 0,
    dur: 45,
    isM: true,
    free: false,
    inst: '',
    q: ['m1'],
    pts: Math.floor(Date.UTC(2025, 0, 1, 10, 30) / 60_000),
    langs: ['hi', 'mr'],
    trans: {},
    draft: false,
    sections: {
      Maths: { ss: false, q: ['s1'], mpq: 2, tm: 10, nm: 0.5, o: 0 },
      GK: { ss: true, q: [], mpq: 0, tm: 0, nm: 0, o: 1, sub: { History: { q: ['h1'], mpq: 1, tm: 5, nm: 0.25, o: 0 } } },
    },
  });
  const checked = checkSave(f, { draft: true, newVersion: true });
  expect(checked.ok && checked.body).toMatchObject({ l: 'Weekly 1', draft: true, newVersion: true });
  // Parts in test order with their allowed counts (floor(tm / mpq), else 100).
  expect(formParts(f).map((p) => [p.key, p.name, p.allowed])).toEqual([
    ['main', null, 10],
    ['s:k-Maths', 'Maths', 5],
    ['u:k-GK:x', 'History', 5],
  ]);
  const moved = withPartQuestions(f, 'u:k-GK:x', ['h2', 'h1']);
  expect(moved.sections[1]!.subs[0]!.q).toEqual(['h2', 'h1']);
  expect(withPartQuestions(f, 'main', []).q).toEqual([]);
});

test('a stored set becomes the form and back unchanged; its totals and state', () => {
  const v = setView('s1', {
    sections: {
      B: { ss: false, q: ['b1'], mpq: 1, tm: 5, nm: 0, o: 1 },
      A: { ss: true, q: [], mpq: 0, tm: 0, nm: 0, o: 0, sub: { Two: { q: ['t2'], mpq: 1, tm: 3, nm: 0, o: 1 }, One: { q: ['t1'], mpq: 1, tm: 2, nm: 0, o: 0 } } },
    },
  });
  const f = toForm(v);
  expect(f.sections.map((s) => s.name)).toEqual(['A', 'B']);
  expect(f.sections[0]!.subs.map((s) => s.name)).toEqual(['One', 'Two']);
  const body = toSave(f, { draft: false });
  expect(body.sections).toEqual({
    A: { ss: true, q: [], mpq: 0, tm: 0, nm: 0, o: 0, sub: { One: { q: ['t1'], mpq: 1, tm: 2, nm: 0, o: 0 }, Two: { q: ['t2'], mpq: 1, tm: 3, nm: 0, o: 1 } } },
    B: { ss: false, q: ['b1'], mpq: 1, tm: 5, nm: 0, o: 1 },
  });
  // What learners see: each part's questions × its marks (docs/authoring.md "Total marks"), not
  // the totals typed (Main 10, B 5, One 2, Two 3).
  expect(totalMarks(v)).toBe(1 + 1 + 1 + 1);
  const now = v.pts * 60_000;
  expect(setState({ draft: true, published: false, pts: 0 }, now)).toBe('draft');
  expect(setState({ draft: false, published: false, pts: v.pts + 60 }, now)).toBe('scheduled');
  expect(setState({ draft: false, published: true, pts: v.pts }, now)).toBe('published');
});

test('free for everyone (issue 18 §4): off for a new set, kept from the stored set, saved as `free`', () => {
  expect(emptyForm().free).toBe(false);
  expect(toForm(setView('s1')).free).toBe(false);
  const f = toForm(setView('s1', { free: true }));
  expect(f.free).toBe(true);
  expect(toSave(f, { draft: false }).free).toBe(true);
  expect(toSave({ ...f, free: false }, { draft: false }).free).toBe(false);
  // The schema the server checks keeps it.
  const checked = checkSave(f, { draft: false });
  expect(checked.ok && checked.body.free).toBe(true);
});

test('total marks (docs/authoring.md): 0 is counted, a typed total must be questions × marks to publish; told in both languages', () => {
  const f: SetForm = { ...emptyForm(), l: 'W', mpq: 2, tm: 0, sections: [section('GK', { q: ['a', 'b'], mpq: 2, tm: 0 }), section('Maths', { q: ['c'], mpq: 2, tm: 0 })] };
  expect(messages(f, false)).toEqual([]);
  expect(totalMarks(toSave(f, { draft: false }) as never)).toBe(6);
  const typed: SetForm = { ...f, sections: [section('GK', { q: ['a', 'b'], mpq: 2, tm: 10 }), section('Maths', { q: ['c'], mpq: 2, tm: 2 })] };
  const msg = 'Total marks of GK section should be 4 (questions × marks per question: 2 × 2), or 0 to have them counted';
  expect(totalMarksError({ name: 'GK', q: ['a', 'b'], mpq: 2, tm: 10 })).toBe(msg);
  expect(totalMarksError({ name: 'Maths', q: ['c'], mpq: 2, tm: 2 })).toBeNull();
  expect(totalMarksError({ name: null, q: [], mpq: 2, tm: 0 })).toBeNull();
  // Publishing is refused; a draft keeps the total as a target (the field still says so).
  expect(messages(typed, false)).toEqual([msg]);
  expect(messages(typed, true)).toEqual([]);
  expect(setRuleText(en, msg)).toBe(msg);
  expect(setRuleText(hi, msg)).toBe('GK खंड के कुल अंक 4 होने चाहिए (प्रश्न × प्रति प्रश्न अंक: 2 × 2), या अपने-आप गिनती के लिए 0');
  expect(setRuleText(hi, totalMarksError({ name: null, q: ['a'], mpq: 1, tm: 3 })!)).toBe('मुख्य खंड के कुल अंक 1 होने चाहिए (प्रश्न × प्रति प्रश्न अंक: 1 × 1), या अपने-आप गिनती के लिए 0');
});

test('set texts in Hindi: the title, instructions and section names go to `trans` and `names`, and come back', () => {
  const f: SetForm = {
    ...emptyForm(),
    l: 'Weekly',
    lHi: 'साप्ताहिक',
    instHi: '<p>ध्यान से पढ़ें</p>',
    sections: [section('GK', { nameHi: ' सामान्य ज्ञान ' }), section('Hindi', { ss: true, subs: [{ key: 'g', name: 'Grammar', nameHi: 'व्याकरण', q: [], mpq: 1, tm: 0, nm: 0 }] })],
  };
  const body = toSave(f, { draft: true });
  expect(body.trans).toEqual({ hi: { l: 'साप्ताहिक', inst: '<p>ध्यान से पढ़ें</p>' } });
  expect(body.sections!.GK!.names).toEqual({ hi: 'सामान्य ज्ञान' });
  expect(body.sections!.Hindi!.sub!.Grammar!.names).toEqual({ hi: 'व्याकरण' });
  // None written: nothing sent (the English is what learners see).
  expect(toSave({ ...f, lHi: ' ', instHi: '', sections: [section('GK')] }, { draft: true })).toMatchObject({ trans: {}, sections: { GK: expect.not.objectContaining({ names: expect.anything() }) } });
  const checked = checkSave(f, { draft: true });
  expect(checked.ok).toBe(true);
  const back = toForm(setView('s1', { ...(checked.ok ? checked.body : {}), id: 's1' } as never));
  expect(back).toMatchObject({ lHi: 'साप्ताहिक', instHi: '<p>ध्यान से पढ़ें</p>', sections: [{ name: 'GK', nameHi: 'सामान्य ज्ञान' }, { name: 'Hindi', subs: [{ name: 'Grammar', nameHi: 'व्याकरण' }] }] });
});

test('publish time: minutes since the epoch to the picker and back; numbers being typed', () => {
  const pts = 28_945_230;
  expect(pickerToPts(ptsToPicker(pts))).toBe(pts);
  expect(pickerToPts(null)).toBeNull();
  expect(pickerToPts('not a date')).toBeNull();
  expect(num('')).toBe(0);
  expect(num('-')).toBe(0);
  expect(num('1.5')).toBe(1.5);
  expect(num(-2)).toBe(-2);
});

test('server answers: the new-version refusal is recognised; names after a message are kept', async () => {
  expect(isNewVersionRefusal(409, MSG.setTakenNewVersion)).toBe(true);
  expect(isNewVersionRefusal(400, MSG.setTakenNewVersion)).toBe(false);
  expect(isNewVersionRefusal(409, MSG.questionInUse)).toBe(false);
  await i18n.changeLanguage('hi');
  try {
    const hiNotApproved = hi('messages:questionNotApproved');
    expect(serverText(hi, `${MSG.questionNotApproved} Q1, Q2`)).toBe(`${hiNotApproved} Q1, Q2`);
    expect(hiNotApproved).not.toBe(MSG.questionNotApproved);
    expect(serverText(hi, MSG.questionSetDeleted)).toBe(hi('messages:questionSetDeleted'));
    expect(isNewVersionRefusal(409, hi('messages:setTakenNewVersion'))).toBe(true);
  } finally {
    await i18n.changeLanguage('en');
  }
});
