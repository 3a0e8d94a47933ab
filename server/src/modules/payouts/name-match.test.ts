import { expect, test } from 'vitest';
import { namesMatch } from './name-match';

test('names match ignoring case, spaces, punctuation and titles (docs/charity.md "Payout accounts")', () => {
  expect(namesMatch('BINA BENEFICIARY', 'Bina Beneficiary')).toBe(true);
  expect(namesMatch('Ms. Bina  Beneficiary', 'bina beneficiary')).toBe(true);
  expect(namesMatch('SMT BINA BENEFICIARY', 'Bina Beneficiary')).toBe(true);
  expect(namesMatch('Rakesh Kumar Verma', 'Bina Beneficiary')).toBe(false);
  expect(namesMatch('Bina', 'Bina Beneficiary')).toBe(false);
  expect(namesMatch(null, 'Bina Beneficiary')).toBeNull();
  expect(namesMatch('Mr.', 'Mr.')).toBe(false);
});
