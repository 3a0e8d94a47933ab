import { createRequire } from 'node:module';
import { passwordShapeProblem } from '../../../sync-protocol/src/auth';
import { MSG } from '../../../sync-protocol/src/messages';
import { badRequest } from './errors';

/*
 * The password policy of issue 16 §5, after NIST SP 800-63B: the spec's minimum of 4 characters
 * and no composition rules, but a password is refused when it is blank or holds control
 * characters, when it is the account's own mobile or e-mail, or when it is among the most common
 * passwords of public breaches. Applied wherever a password is set: signup, reset with a code,
 * change with the old password, admin reset (and the create-admin command).
 */

/**
 * The 49,233 most common passwords of breach corpora (zxcvbn-ts' list, ordered by frequency),
 * loaded on first use: 100 ms and a few MB that a server which never sets a password does not
 * pay, and that never enter the client bundle (only the server imports this file).
 */
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    const lang = require('@zxcvbn-ts/language-common') as { dictionary: Record<string, string[]> };
    common = new Set(lang.dictionary['passwords-common']);
  }
  return common;
}

/** What a password may not equal: the account's identifiers (as stored, or as the user typed them). */
export type PasswordOwner = { mobile?: string | null; email?: string | null };

/** The ways of writing a mobile that a person would type as a password: 98…, 098…, 9198…, +9198…. */
function isMobile(password: string, mobile: string): boolean {
  const digits = /(\d{10})$/.exec(mobile)?.[1];
  if (!digits) return false;
  const written = password.replace(/[\s().-]/g, '');
  return written === digits || written === `0${digits}` || written === `91${digits}` || written === `+91${digits}`;
}

function isEmail(password: string, email: string): boolean {
  const p = password.trim().toLowerCase();
  const e = email.trim().toLowerCase();
  const local = e.slice(0, e.lastIndexOf('@'));
  return p === e || (local !== '' && p === local);
}

/** The first rule a password breaks, as a user-facing msg; null when it may be used. */
export function passwordProblem(password: string, owner: PasswordOwner = {}): string | null {
  const shape = passwordShapeProblem(password);
  if (shape) return MSG[shape];
  if (owner.mobile && isMobile(password, owner.mobile)) return MSG.passwordIsMobile;
  if (owner.email && isEmail(password, owner.email)) return MSG.passwordIsEmail;
  // The list is lower-case; "Password1" is as guessable as "password1".
  const folded = password.normalize('NFKC').trim().toLowerCase();
  if (commonPasswords().has(folded)) return MSG.passwordTooCommon;
  return null;
}

/** 400 with the rule's msg when the password may not be set. */
export function assertPasswordAllowed(password: string, owner: PasswordOwner = {}): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw badRequest(problem);
}
