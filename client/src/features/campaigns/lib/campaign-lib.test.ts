import { expect, test } from 'vitest';
import { daysLeft, donationBlock, goalOf, imageProblem, isPan, pick, progressPercent, whatsappLink } from './campaign-lib';
import { amountError, parseRupees, sharePercent } from './donation-rules';
import { draftErrors, draftOf, editorGoal, editorValuesOf, endOfDay } from './editor-values';

const DAY = 86_400_000;

test('texts in the chosen language, English where Hindi is missing', () => {
  expect(pick({ en: 'Books', hi: 'किताबें' }, 'hi')).toBe('किताबें');
  expect(pick({ en: 'Books', hi: '' }, 'hi')).toBe('Books');
  expect(pick({ en: '', hi: 'किताबें' }, 'en')).toBe('किताबें');
});

test('days left count a part of a day as one; progress is a whole percentage at most 100', () => {
  const now = Date.UTC(2026, 10, 1);
  expect(daysLeft(now + DAY / 2, now)).toBe(1);
  expect(daysLeft(now + 3 * DAY, now)).toBe(3);
  expect(daysLeft(now - 1, now)).toBe(0);
  expect(progressPercent(2_500, 10_000)).toBe(25);
  expect(progressPercent(20_000, 10_000)).toBe(100);
  expect(progressPercent(5, 0)).toBe(0);
});

test('only an approved campaign whose end has not passed takes donations; otherwise the reason', () => {
  const now = 1_000;
  expect(donationBlock({ status: 'APPROVED', endsAt: now + 1 }, now)).toBeNull();
  expect(donationBlock({ status: 'APPROVED', endsAt: now }, now)).toBe('ended');
  expect(donationBlock({ status: 'PAUSED', endsAt: now + 1 }, now)).toBe('paused');
  expect(donationBlock({ status: 'CLOSED', endsAt: now + 1 }, now)).toBe('closed');
  expect(donationBlock({ status: 'SUBMITTED', endsAt: now + 1 }, now)).toBe('notApproved');
});

test('PAN is AAAAA9999A; the goal is the sum of the need', () => {
  expect(isPan('ABCDE1234F')).toBe(true);
  expect(isPan('abcde1234f')).toBe(true);
  expect(isPan('ABCD12345F')).toBe(false);
  expect(goalOf([{ amount: 150_00 }, { amount: 49_50 }])).toBe(199_50);
  expect(whatsappLink('Books for Asha', 'https://x.test/campaigns/1')).toBe('https://wa.me/?text=Books%20for%20Asha%20https%3A%2F%2Fx.test%2Fcampaigns%2F1');
});

test('an image is taken by its size and first bytes: PNG or JPEG up to 5 MB', async () => {
  const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])]);
  const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])]);
  const gif = new Blob([new TextEncoder().encode('GIF89a....')], { type: 'image/png' });
  expect(await imageProblem(png)).toBeNull();
  expect(await imageProblem(jpeg)).toBeNull();
  expect(await imageProblem(gif)).toBe('type');
  expect(await imageProblem(new Blob([new Uint8Array(5 * 1024 * 1024 + 1)]))).toBe('size');
});

test("a donation's amount: rupees with at most two decimals, at least ₹1, at most one order's largest", () => {
  expect(parseRupees('51.50')).toBe(51.5);
  expect(parseRupees('1e2')).toBeNull();
  expect(amountError('')).toBe('donate.errors.invalidAmount');
  expect(amountError('abc')).toBe('donate.errors.invalidAmount');
  expect(amountError('0.5')).toBe('donate.errors.amountMin');
  expect(amountError('100001')).toBe('donate.errors.amountMax');
  expect(amountError('1')).toBeNull();
  expect(sharePercent({ amount: 10_000, share: 600, shareBps: 600 })).toBe('6');
  expect(sharePercent({ amount: 10_000, share: 650 })).toBe('6.5');
});

test('the draft: rupees become paise, blank need rows are dropped, the last day ends at midnight; submitting needs a future day', () => {
  const values = {
    ...editorValuesOf(null),
    titleEn: ' Books for Asha ',
    storyEn: '<p>Class 10</p>',
    cause: 'BOOKS' as const,
    need: [
      { whatEn: 'Maths guide', whatHi: 'गणित गाइड', from: '', amount: '450.50' },
      { whatEn: '', whatHi: '', from: '', amount: '' },
    ],
    endsOn: '2026-12-31',
  };
  expect(editorGoal(values.need)).toBe(450_50);
  const draft = draftOf(values);
  expect(draft.title).toEqual({ en: 'Books for Asha', hi: '' });
  expect(draft.need).toEqual([{ what: { en: 'Maths guide', hi: 'गणित गाइड' }, amount: 450_50 }]);
  expect(draft.endsAt).toBe(endOfDay('2026-12-31'));
  expect(new Date(draft.endsAt).getHours()).toBe(23);
  expect(draftErrors(values, { submitting: true, now: Date.UTC(2026, 0, 1) })).toEqual({});
  expect(draftErrors(values, { submitting: true, now: Date.UTC(2027, 0, 2) })).toEqual({ endsOn: 'editor.errors.endsOn' });
  expect(draftErrors(values, { submitting: false, now: Date.UTC(2027, 0, 2) })).toEqual({});
  expect(draftErrors({ ...values, storyEn: '<p> </p>', need: [{ whatEn: '', whatHi: '', from: '', amount: '0' }] }, { submitting: false })).toEqual({
    storyEn: 'editor.errors.story',
    'need.0.whatEn': 'editor.errors.needWhat',
    'need.0.amount': 'editor.errors.needAmount',
  });
});
