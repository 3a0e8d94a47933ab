import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { passwordShapeProblem } from '@pm/protocol/auth';
import { DEMO_MEMBER_PASSWORD } from '@pm/protocol/fixtures';
import { MSG } from '@pm/protocol/messages';
import { badRequest } from './errors';

/*
 * The password policy (docs/security.md "Rate limits, enumeration, passwords, the outbox"), after NIST SP 800-63B: the spec's minimum of 4 characters
 * and no composition rules, but a password is refused when it is blank or holds control
 * characters, when it is the account's own mobile or e-mail, or when it is among the most common
 * passwords of public breaches, or is one of the demo passwords published in fixtures/. Applied
 * wherever a password is set: signup, reset with a code, change with the old password, admin
 * reset (and the create-admin command).
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

/** The project's fixtures (the demo data, published with the code). */
const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures');

/** The list's folding: "Admin1234 " is as guessable from the README as "admin1234". */
const fold = (password: string) => password.normalize('NFKC').trim().toLowerCase();

/**
 * Every password published with the code: each string under a key named like "password" in any
 * JSON file of fixtures/ (the demo accounts), and the demo members' DEMO_MEMBER_PASSWORD. Refused
 * in every mode (docs/security.md, "Production that cannot be fooled"): an admin who set one live
 * would open the account to anyone who read the README, and the next production start would
 * refuse to run (db/seed.ts findDemoLogins). The demo seed hashes them directly, past this policy.
 */
export function publishedPasswords(dir: string = FIXTURES_DIR): Set<string> {
  const found = new Set<string>([fold(DEMO_MEMBER_PASSWORD)]);
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      if (/password/i.test(key)) found.add(fold(value));
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, key);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.json')) walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), '');
  }
  return found;
}

let published: Set<string> | undefined;

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
  const folded = fold(password);
  if ((published ??= publishedPasswords()).has(folded)) return MSG.passwordPublished;
  if (commonPasswords().has(folded)) return MSG.passwordTooCommon;
  return null;
}

/** 400 with the rule's msg when the password may not be set. */
export function assertPasswordAllowed(password: string, owner: PasswordOwner = {}): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw badRequest(problem);
}
