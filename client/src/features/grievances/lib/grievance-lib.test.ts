import { expect, test } from 'vitest';
import { grievancePath, mayReopen, needsSubjectId, prefillOf } from './grievance-lib';

test('the form is filled from its address, refusing what it does not know', () => {
  expect(prefillOf(new URLSearchParams('subject=DONATION&id=order-9'))).toEqual({ subject: 'DONATION', subjectId: 'order-9' });
  expect(prefillOf(new URLSearchParams('subject=CAMPAIGN&id=demo-campaign-1'))).toEqual({ subject: 'CAMPAIGN', subjectId: 'demo-campaign-1' });
  expect(prefillOf(new URLSearchParams('subject=ACCOUNT&id=someone'))).toEqual({ subject: 'ACCOUNT', subjectId: '' });
  expect(prefillOf(new URLSearchParams('subject=MONEY&id=x'))).toEqual({ subject: 'OTHER', subjectId: '' });
  expect(prefillOf(new URLSearchParams('subject=DONATION&id=a/b'))).toEqual({ subject: 'DONATION', subjectId: '' });
  expect(prefillOf(new URLSearchParams(''))).toEqual({ subject: 'OTHER', subjectId: '' });
});

test('which subjects name one thing; the reopen window; the page of a grievance', () => {
  expect(['DONATION', 'CAMPAIGN', 'WITHDRAWAL', 'ACCOUNT', 'OTHER'].map((s) => needsSubjectId(s as never))).toEqual([true, true, true, false, false]);
  expect(mayReopen({ status: 'RESOLVED', reopenUntil: 1000 }, 1000)).toBe(true);
  expect(mayReopen({ status: 'RESOLVED', reopenUntil: 1000 }, 1001)).toBe(false);
  expect(mayReopen({ status: 'OPEN', reopenUntil: null }, 0)).toBe(false);
  expect(grievancePath('g 1')).toBe('/grievances/g%201');
});
