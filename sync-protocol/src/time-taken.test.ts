import { expect, test } from 'vitest';
import { questionSeconds, timeTaken } from './time-taken';

/* docs/exams.md "Time taken": per question its time on screen, parts and the attempt are sums. */

test('a question counts in whole seconds, rounded once', () => {
  expect(questionSeconds(undefined)).toBe(0);
  expect(questionSeconds(0)).toBe(0);
  expect(questionSeconds(499)).toBe(0);
  expect(questionSeconds(500)).toBe(1);
  expect(questionSeconds(2_600)).toBe(3);
  expect(questionSeconds(180_400)).toBe(180);
});

test('parts are the sum of their questions and the total the sum of the parts', () => {
  // Three questions of 1.4 s: each shows 1 s, so the part shows 3 s (not round(4.2) = 4 s) and
  // the total 3 s + the other part — the figures on the page add up.
  const parts = { wos: { a: {}, b: {}, c: {} }, Reasoning: { d: {}, e: {} } };
  const answers = { a: { t: 1_400 }, b: { t: 1_400 }, c: { t: 1_400 }, d: { t: 179_600 }, e: {} };
  const time = timeTaken(parts, answers);
  expect(time.questions).toEqual({ a: 1, b: 1, c: 1, d: 180, e: 0 });
  expect(time.parts).toEqual({ wos: 3, Reasoning: 180 });
  expect(time.total).toBe(183);
  expect(Object.values(time.parts).reduce((x, y) => x + y, 0)).toBe(time.total);
  expect(Object.values(time.questions).reduce((x, y) => x + y, 0)).toBe(time.total);
});

test('questions never opened take 0 s; time on a question the result leaves out is not counted', () => {
  const time = timeTaken({ wos: { a: {}, b: {} } }, { a: { t: 5_000 }, gone: { t: 60_000 } });
  expect(time).toEqual({ total: 5, parts: { wos: 5 }, questions: { a: 5, b: 0 } });
});
