import { expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { accountBody, accountRules, emptyAccount, fieldOfRefusal, maskedAccount, rupeesTextToPaise, withdrawalAmountError } from './payout-rules';

test('the account rules are the server\'s (docs/charity.md "Payout accounts"); a bank field counts only for a bank account', () => {
  const rules = accountRules(false);
  const bank = { ...emptyAccount(), kind: 'BANK' as const, accountNumber: '123456789' };
  expect(rules.ifsc('SBIN0001234', bank)).toBeNull();
  expect(rules.ifsc('SBIN1001234', bank)).toBe('form.errors.ifsc');
  expect(rules.ifsc('', emptyAccount())).toBeNull();
  expect(rules.accountNumber('12345678', bank)).toBe('form.errors.accountNumber');
  expect(rules.accountNumber('1'.repeat(18), bank)).toBeNull();
  expect(rules.accountNumber('1'.repeat(19), bank)).toBe('form.errors.accountNumber');
  expect(rules.accountNumberConfirm('123456780', bank)).toBe('form.errors.accountNumberConfirm');
  expect(rules.accountNumberConfirm('123456789', bank)).toBeNull();
  expect(rules.vpa('asha@upi', emptyAccount())).toBeNull();
  expect(rules.vpa('asha@', emptyAccount())).toBe('form.errors.vpa');
  expect(rules.supplierName('')).toBeNull();
  expect(accountRules(true).supplierName(' ')).toBe('form.errors.supplierName');
  expect(accountBody({ ...bank, holderName: ' Asha ', ifsc: 'sbin0001234', accountNumberConfirm: '123456789', vpa: 'left@over' })).toEqual({
    kind: 'BANK',
    holderName: 'Asha',
    ifsc: 'SBIN0001234',
    accountNumber: '123456789',
    accountNumberConfirm: '123456789',
  });
});

test('a server refusal names its field first; the longest name wins', () => {
  const refusal = (msg: string, status = 400) => new ApiError(status, `translated ${msg}`, undefined, { msg });
  const fields = ['accountNumber', 'accountNumberConfirm', 'payoutAccountId', 'purpose'] as const;
  expect(fieldOfRefusal(refusal('accountNumberConfirm does not match accountNumber'), fields)).toBe('accountNumberConfirm');
  expect(fieldOfRefusal(refusal('accountNumber must be 9 to 18 digits'), fields)).toBe('accountNumber');
  expect(fieldOfRefusal(refusal('payoutAccountId: this account is not verified', 409), fields)).toBe('payoutAccountId');
  expect(fieldOfRefusal(refusal('purpose.en must not be empty'), fields)).toBe('purpose');
  expect(fieldOfRefusal(refusal('Foreign contributions can pay only the campaign\'s own need', 409), fields)).toBeNull();
  expect(fieldOfRefusal(refusal('accountNumber broke', 500), fields)).toBeNull();
  expect(fieldOfRefusal(new Error('accountNumber'), fields)).toBeNull();
});

test('amounts: rupees typed, paise sent; at least ₹1 and at most what is available', () => {
  expect(rupeesTextToPaise('150.50')).toBe(150_50);
  expect(rupeesTextToPaise('0.1')).toBe(10);
  expect(rupeesTextToPaise('1.234')).toBeNull();
  expect(withdrawalAmountError('abc', 100_00)).toBe('withdraw.errors.amount');
  expect(withdrawalAmountError('0.99', 100_00)).toBe('withdraw.errors.amountMin');
  expect(withdrawalAmountError('100.01', 100_00)).toBe('withdraw.errors.amountMax');
  expect(withdrawalAmountError('100', 100_00)).toBeNull();
});

test('an account is shown masked: the last four digits and the IFSC, or the UPI id', () => {
  expect(maskedAccount({ kind: 'BANK', accountLast4: '6789', ifsc: 'SBIN0001234' })).toBe('•••• 6789 · SBIN0001234');
  expect(maskedAccount({ kind: 'VPA', vpa: 'asha@upi' })).toBe('asha@upi');
});
