import { expect, test } from 'vitest';
import { emailSchema, hasUnsafeChars as fromCommon } from './common';
import { hasUnsafeChars, isEmailAddress, normaliseUsername } from './text-rules';

test('isEmailAddress accepts exactly what emailSchema accepts (the client checks without zod\'s schemas)', () => {
  const samples = [
    'learner@example.com',
    '  Learner@Example.COM ',
    'a.b-c+d@mail.example.co.in',
    'x@y',
    'no-at-sign',
    '@example.com',
    'learner@',
    'learner@example.c',
    'two@@example.com',
    'dots..twice@example.com',
    '.lead@example.com',
    'मित्र@example.com',
    'name@exa_mple.com',
    `${'a'.repeat(64)}@${'b'.repeat(180)}.com`,
    `${'a'.repeat(64)}@${'b'.repeat(190)}.com`,
    '',
  ];
  for (const s of samples) expect(isEmailAddress(s), s).toBe(emailSchema.safeParse(s).success);
});

test('the rules ./common re-exports are the same functions', () => {
  expect(fromCommon).toBe(hasUnsafeChars);
  expect(normaliseUsername(' 91 98765 43210 ')).toEqual({ mobile: '+919876543210' });
  expect(normaliseUsername('A@B.in')).toEqual({ email: 'a@b.in' });
});
