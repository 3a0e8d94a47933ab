import { expect, test } from 'vitest';
import { signupSchema } from './auth';
import { normaliseMobile, normaliseUsername } from './common';
import { MSG } from './messages';
import { questionInputSchema } from './question';
import { questionSetInputSchema, sectionNameSchema } from './question-set';

test('mobiles: 10 digits get +91; +91 / 91 prefixes and spaces are accepted; anything else is refused', () => {
  expect(normaliseMobile('9000000003')).toBe('+919000000003');
  expect(normaliseMobile('+91 90000 00003')).toBe('+919000000003');
  expect(normaliseMobile('919000000003')).toBe('+919000000003');
  expect(normaliseMobile('900000003')).toBeNull();
  expect(normaliseMobile('90000000031')).toBeNull();
  expect(normaliseMobile('abcdefghij')).toBeNull();
});

test('usernames: with @ an e-mail (lower-cased), without a mobile with +91', () => {
  expect(normaliseUsername(' Admin@Example.com ')).toEqual({ email: 'admin@example.com' });
  expect(normaliseUsername('9000000001')).toEqual({ mobile: '+919000000001' });
  expect(normaliseUsername('12')).toBeNull();
});

test('signup messages are the spec texts', () => {
  const base = { n: 'Ravi Kumar', m: '9876543210', e: 'ravi@example.com', password: 'secret', p: 'x', terms: true };
  const msg = (v: object) => {
    const r = signupSchema.safeParse({ ...base, ...v });
    return r.success ? null : r.error.issues[0]?.message;
  };
  expect(msg({})).toBeNull();
  expect(msg({ n: 'Ravi'.slice(0, 3) })).toBe(MSG.fullName);
  expect(msg({ e: 'not-an-email' })).toBe(MSG.validEmail);
  expect(msg({ m: '12345' })).toBe(MSG.validMobile);
  expect(msg({ password: 'abc' })).toBe(MSG.passwordMin);
  expect(msg({ confirmPassword: 'other' })).toBe(MSG.passwordMismatch);
  expect(msg({ p: '' })).toBe(MSG.referrerRequired);
  expect(msg({ extra: 1 })).toMatch(/extra/);
  // 18 or older and the terms accepted; the referrer, or "No one invited me" (docs/api.md "Signup").
  expect(msg({ terms: undefined })).toBe(MSG.termsRequired);
  expect(msg({ terms: false })).toBe(MSG.termsRequired);
  expect(msg({ p: undefined })).toBe(MSG.referrerRequired);
  expect(msg({ p: undefined, noInviter: true })).toBeNull();
  expect(msg({ noInviter: true })).toBe(MSG.inviterChoiceTwice);
});

test('question rules: correct answer present, options not blank, mcq1 has exactly one answer', () => {
  const ok = { q: '<p>2 + 2 = ?</p>', ops: { a: '3', b: '4' }, ca: ['b'], qt: 'mcq1' };
  expect(questionInputSchema.safeParse(ok).success).toBe(true);
  const first = (v: object) => questionInputSchema.safeParse({ ...ok, ...v }).error?.issues[0]?.message;
  expect(first({ ca: [] })).toBe('Correct answer is missing.');
  expect(first({ ops: { a: '3', b: '<p> </p>' } })).toBe('Option cannot be blank');
  expect(first({ ca: ['a', 'b'] })).toBe('Correct answer is missing.');
  expect(questionInputSchema.safeParse({ ...ok, qt: 'mcq2', ca: ['a', 'b'] }).success).toBe(true);
  expect(questionInputSchema.safeParse({ q: 'Capital of India is ____', ops: {}, ca: ['New Delhi'], qt: 'f' }).success).toBe(true);
});

test('question-set and section-name rules carry the spec messages', () => {
  const set = (v: object) => questionSetInputSchema.safeParse({ l: 'Set', pts: 1, q: ['q1'], ...v });
  expect(set({}).success).toBe(true);
  expect(set({ l: '' }).error?.issues[0]?.message).toBe('Question set cannot be saved without label');
  expect(set({ nm: -1 }).error?.issues[0]?.message).toBe('Negative marking should be a positive number');
  expect(set({ q: [] }).error?.issues[0]?.message).toBe('Question set cannot be saved without any section');
  for (const bad of ['q', 'MPQ', 'tm', 'nm', 'none']) {
    expect(sectionNameSchema.safeParse(bad).error?.issues[0]?.message).toBe('Invalid section name');
  }
  expect(sectionNameSchema.safeParse('Main').error?.issues[0]?.message).toMatch(/^Section with this name cannot be created/);
  expect(sectionNameSchema.safeParse('Reasoning').success).toBe(true);
});
