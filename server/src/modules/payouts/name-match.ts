/*
 * Whether the name a bank or UPI provider has for an account is the payee's (docs/charity.md
 * "Payout accounts"): the same letters once case, spaces, punctuation and titles are set aside.
 * A mismatch is never silently accepted: the trustees see both names and must say they accept it.
 */

/** Titles and honorifics banks put before names (English and their Indian forms). */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'shri', 'sri', 'shree', 'smt', 'kumari', 'km', 'kum', 'master', 'mx', 'prof']);

/** A name as compared: lowercase words without titles, run together. */
export function comparableName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !TITLES.has(w))
    .join('');
}

/** Whether `registered` names the same person as `expected`; null when the provider gave no name. */
export function namesMatch(registered: string | null, expected: string): boolean | null {
  if (registered === null) return null;
  const a = comparableName(registered);
  return a.length > 0 && a === comparableName(expected);
}
