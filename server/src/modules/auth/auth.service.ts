import { eq, sql } from 'drizzle-orm';
import type { LoginResponse } from '@pm/protocol/auth';
import { emailSchema, normaliseMobile, normaliseUsername } from '@pm/protocol/common';
import { MSG } from '@pm/protocol/messages';
import { DEFAULT_ROLE } from '@pm/protocol/role';
import type { Deps, Principal } from '../../context';
import type { DB } from '../../db/client';
import { person } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { type Actor, logActivity } from '../../lib/activity';
import { type CodePurpose, consumeCode, issueCode } from '../../lib/codes';
import { badRequest, conflict, forbidden, notFound, unauthenticated } from '../../lib/errors';
import { personMoney } from '../../lib/ledger';
import { SECRET_MASK } from '../../lib/outbox';
import { assertPasswordAllowed } from '../../lib/password-policy';
import { generatePassword, hashPassword, verifyPassword } from '../../lib/passwords';
import type { Limit } from '../../lib/rate-limit';
import { endSession, endSessionsOf, liveSession, openSession, type SessionRow, sessionToken } from '../../lib/sessions';
import {
  assertReferrerAllowed,
  assertUnique,
  auditView,
  copyRolePermissions,
  findByMobileOrEmail,
  findRole,
  NEUTRAL_TEAM_FIGURES,
  type PersonRow,
  permissionsOf,
  roleOf,
} from '../persons/persons.repo';
import { assertMayResetPassword } from '../persons/privileges';
import { referrerIdOf } from '../persons/referrer';
import { mobileEnding, smsLanguageOf, smsMessage } from '../sms/messages';
import type { SmsLang } from '../sms/templates';

/**
 * The answer of a sign-in. Its token opens a new session (login, signup, OTP sign-in), or, given
 * `keep`, belongs to that existing session (a password change keeps the session it was made in).
 */
export async function loginResponse(
  deps: Deps,
  row: PersonRow,
  msg: string = MSG.loginSuccessful,
  keep?: Pick<SessionRow, 'id' | 'expiresAt'>,
): Promise<LoginResponse> {
  const token = keep
    ? await sessionToken(deps.config.jwtSecret, row, keep)
    : (await openSession(deps.db, deps.config.jwtSecret, row)).token;
  const money = (await personMoney(deps.db, [row.id])).get(row.id)!;
  return {
    success: true,
    msg,
    token,
    id: row.id,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    r: { name: (await roleOf(deps.db, row.roleId))?.name ?? DEFAULT_ROLE },
    permissions: (await permissionsOf(deps.db, row.id)).map((p) => ({ permission: p })),
    // Sums over the ledger, never the person's columns (docs/charity.md "The ledger").
    tac: money.collected / 100,
    iprr: row.iprr,
    // Neutral, whoever joins below them (docs/charity.md "The referral team").
    dq: NEUTRAL_TEAM_FIGURES.dq,
    aw: (money.collected - money.withdrawn) / 100,
    curr_orbit: NEUTRAL_TEAM_FIGURES.curr_orbit,
    taw: money.withdrawn / 100,
    terms: termsOf(deps, row),
  };
}

/** Whether `row` has accepted the installation's current terms (TERMS_VERSION, docs/configuration.md). */
function termsOf(deps: Deps, row: Pick<PersonRow, 'termsVersion'>) {
  return { version: deps.config.TERMS_VERSION, accepted: row.termsVersion === deps.config.TERMS_VERSION };
}

function usernameKey(username: string) {
  let key = normaliseUsername(username);
  // Anything with '@' is meant as an e-mail, but only a well-formed one is ('Invalid email').
  if (key && 'email' in key && !emailSchema.safeParse(key.email).success) key = null;
  return { key, label: key ? ('email' in key ? key.email : key.mobile) : username.trim().toLowerCase() };
}

/*
 * The budgets each account route spends (lib/rate-limit.ts has the numbers and their reasons).
 * They are keyed by the username as written and normalised (`label`), never by whether it is
 * registered, and spent before any work, so that a registered and an unknown account answer
 * alike — also when the answer is 429 (docs/security.md "Rate limits, enumeration, passwords, the outbox").
 */

/** A password guess: per (username, IP), per username from everywhere, per IP. */
function passwordGuessLimits(label: string, ip: string): Limit[] {
  return [
    ['loginPair', `${ip} ${label}`],
    ['loginAccount', label],
    ['authFailIp', ip],
  ];
}

/** A one-time code guess, per purpose so that guessing reset codes does not block OTP sign-in. */
function codeGuessLimits(purpose: CodePurpose, label: string, ip: string): Limit[] {
  return [
    ['codePair', `${purpose} ${ip} ${label}`],
    ['codeAccount', `${purpose} ${label}`],
    ['authFailIp', ip],
  ];
}

/** A message with a code: per (username, IP), per username (the recipient's phone), per IP. */
function codeSendLimits(purpose: CodePurpose, label: string, ip: string): Limit[] {
  return [
    ['sendPair', `${purpose} ${ip} ${label}`],
    ['sendAccount', `${purpose} ${label}`],
    ['sendIp', ip],
  ];
}

/**
 * POST /UserLogin/login. The attempt spends its budgets before the password is checked (so N
 * parallel guesses never get past the limit) and gives them back when it was right: only failures
 * count. An unknown username costs the same argon2 work as a known one.
 */
export async function login(deps: Deps, input: { username: string; password: string; ip: string }) {
  if (!input.username.trim() || !input.password) throw badRequest(MSG.credentialsRequired);
  const { key, label } = usernameKey(input.username);
  const limits = passwordGuessLimits(label, input.ip);
  await deps.rates.consumeAll(limits);
  const row = key ? await findByMobileOrEmail(deps.db, key) : undefined;
  const ok = await verifyPassword(row?.passwordHash ?? null, input.password);
  if (!row || !ok) throw unauthenticated(MSG.badCredentials);
  await deps.rates.refund(limits);
  if (row.status !== 'ACTIVE') throw forbidden(MSG.accountInactive);
  return loginResponse(deps, row);
}

/**
 * POST /UserLogin — signup; the new person gets the MEMBER role and its permissions. The schema
 * has made sure they confirmed being 18 or older and accepting the terms (`terms: true`); the
 * version they accepted is the installation's current one, kept with the time (docs/api.md
 * "Signup"). Without an inviter (`noInviter`), the server places them under the trust's account:
 * the caller cannot name any other referrer that way.
 */
export async function signup(
  deps: Deps,
  input: { n: string; m: string; e: string | null; password: string; p?: string | undefined; noInviter?: true | undefined; ip: string },
) {
  // A refused password costs nothing; then the attempt spends its IP's signup budget first.
  assertPasswordAllowed(input.password, { mobile: input.m, email: input.e });
  await deps.rates.consume('signupIp', input.ip);
  // `p` is the lookup's opaque handle, or a person id; an ACTIVE person either way (docs/security.md "Referrals and names"),
  // checked again in the transaction: the referrer may be blocked during the hash.
  const referrer = {
    id: input.noInviter || input.p === undefined ? await trustAccountId(deps) : await referrerIdOf(deps.db, deps.config.jwtSecret, input.p),
  };
  await assertReferrerAllowed(deps.db, referrer.id);
  await assertUnique(deps.db, input.m, input.e);
  const passwordHash = await hashPassword(input.password);
  const row = await transaction(deps.db, async (tx) => {
    await assertReferrerAllowed(tx, referrer.id);
    await assertUnique(tx, input.m, input.e);
    const memberRole = await findRole(tx, DEFAULT_ROLE);
    const created = (await first(
      tx
        .insert(person)
        .values({
          name: input.n,
          mobile: input.m,
          email: input.e,
          parentId: referrer.id,
          roleId: memberRole?.id ?? null,
          passwordHash,
          termsVersion: deps.config.TERMS_VERSION,
          termsAcceptedAt: Date.now(),
        })
        .returning(),
    ))!;
    if (memberRole) await copyRolePermissions(tx, created.id, memberRole.id);
    await logActivity(tx, {
      actor: { id: created.id, name: created.name },
      action: 'CREATE',
      entity: 'person',
      entityId: created.id,
      newValue: await auditView(tx, created),
    });
    return created;
  });
  // Where the installation asks for it (SIGNUP_VERIFY_MOBILE; docs/sms.md "Every code by SMS"), a
  // code goes to the new mobile at once; the person enters it on their profile.
  if (deps.config.SIGNUP_VERIFY_MOBILE) sendMobileCode(deps, row);
  return loginResponse(deps, row, MSG.userCreated);
}

/** A code to verify `row`'s mobile, after the answer (a code voids the one before). */
function sendMobileCode(deps: Deps, row: Pick<PersonRow, 'id' | 'mobile' | 'email'>, lang?: SmsLang) {
  deps.afterAnswer.run('mobile verification code', async () => {
    const code = await issueCode(deps.db, deps.config.jwtSecret, row.id, 'MOBILE');
    const fallback = row.email ? { emailFallback: { personId: row.id } } : {};
    await deps.outbox.send(smsMessage('mobile_verify', row.mobile, {}, { lang: smsLanguageOf(row, lang), secret: code, ...fallback }));
  }, row.id);
}

/**
 * POST /Person/me/mobile/code: a code to the signed-in person's own mobile, to verify it (`mv`).
 * The answer names the mobile by its last two digits: the person knows their own number, and
 * the screen says where the code went (docs/sms.md "Where the code went").
 */
export async function requestMobileCode(deps: Deps, actor: Principal, input: { ip: string; lang?: SmsLang }) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, actor.id)));
  if (!row) throw unauthenticated();
  if (row.mobileVerified) throw badRequest(MSG.mobileAlreadyVerified);
  await deps.rates.consumeAll([...codeSendLimits('MOBILE', actor.id, input.ip), ['sendAccount', `MOBILE to ${row.mobile}`]]);
  sendMobileCode(deps, row, input.lang);
  return { success: true as const, msg: MSG.mobileCodeSent, sentTo: mobileEnding(row.mobile), email: row.email !== null };
}

/** POST /Person/me/mobile/verify: the code sent to the person's mobile sets `mv`. Guesses are limited like other codes. */
export async function verifyMobile(deps: Deps, actor: Principal, input: { code: string; ip: string }) {
  const limits = codeGuessLimits('MOBILE', actor.id, input.ip);
  await deps.rates.consumeAll(limits);
  const ok = await transaction(deps.db, async (tx) => {
    if (!(await consumeCode(tx, deps.config.jwtSecret, actor.id, 'MOBILE', input.code))) return false;
    await tx.update(person).set({ mobileVerified: true, updatedAt: Date.now() }).where(eq(person.id, actor.id));
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'person', entityId: actor.id, newValue: { mobileVerified: true, reason: 'verified by code' } });
    return true;
  });
  if (!ok) throw badRequest(MSG.invalidCode);
  await deps.rates.refund(limits);
  return { success: true as const, msg: MSG.mobileVerified, mv: true };
}

/**
 * The person a signup without an inviter is placed under: the trust's account of TRUST_ACCOUNT
 * (an id or a mobile, docs/configuration.md). Without one, or when it names no one, such a signup
 * is refused with a message that asks for the inviter's mobile (and the operator is told why).
 */
async function trustAccountId(deps: Deps): Promise<string> {
  const setting = deps.config.TRUST_ACCOUNT;
  if (!setting) throw badRequest(MSG.noTrustAccount);
  const mobile = normaliseMobile(setting);
  const row = mobile
    ? await findByMobileOrEmail(deps.db, { mobile })
    : await first(deps.db.select().from(person).where(eq(person.id, setting)));
  if (!row) {
    deps.log.error({ TRUST_ACCOUNT: setting }, 'TRUST_ACCOUNT names no person: signups without an inviter are refused');
    throw badRequest(MSG.noTrustAccount);
  }
  return row.id;
}

/** GET /UserLogin/terms: the installation's terms version and whether the signed-in person accepted it. */
export async function termsState(deps: Deps, actor: Principal) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, actor.id)));
  if (!row) throw unauthenticated();
  return { success: true as const, ...termsOf(deps, row), acceptedAt: row.termsAcceptedAt };
}

/**
 * POST /UserLogin/acceptTerms: the signed-in person accepts the terms' current version (at first
 * login of an account made by staff, or after TERMS_VERSION changed). A version other than the
 * current one is refused (409): what the person read is not what is in force.
 */
export async function acceptTerms(deps: Deps, actor: Principal, input: { version: string }) {
  if (input.version !== deps.config.TERMS_VERSION) throw conflict(MSG.termsChanged);
  const at = Date.now();
  await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(person).where(eq(person.id, actor.id)));
    if (!before) throw unauthenticated();
    await tx.update(person).set({ termsVersion: input.version, termsAcceptedAt: at }).where(eq(person.id, actor.id));
    await logActivity(tx, {
      actor,
      action: 'UPDATE',
      entity: 'person',
      entityId: actor.id,
      oldValue: { termsVersion: before.termsVersion, termsAcceptedAt: before.termsAcceptedAt },
      newValue: { termsVersion: input.version, termsAcceptedAt: at },
    });
  });
  return { success: true as const, msg: MSG.termsAccepted, version: input.version, accepted: true, acceptedAt: at };
}

/**
 * POST /Person/me/email: a code goes to the new address; the old one stays in use until the code
 * is entered (verifyEmailChange). The answer is the same, in the same time, whether or not the
 * address belongs to another account: only the budgets are spent before it; the look-up, the
 * code and the message come after it (afterAnswer), and an address that is taken gets no message.
 */
export async function requestEmailChange(deps: Deps, actor: Principal, input: { e: string; ip: string }) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, actor.id)));
  if (!row) throw unauthenticated();
  // Only the person's own address is compared here: that tells them nothing about anyone else.
  if (row.email === input.e) throw badRequest(MSG.emailSameAsCurrent);
  await deps.rates.consumeAll([
    ...codeSendLimits('EMAIL', actor.id, input.ip),
    // The new address's inbox is protected too, whoever asks for codes to be sent there.
    ['sendAccount', `EMAIL to ${input.e}`],
  ]);
  deps.afterAnswer.run('e-mail change code', async () => {
    const taken = await findByMobileOrEmail(deps.db, { email: input.e });
    const free = !taken || taken.id === actor.id;
    const code = await transaction(deps.db, async (tx) => {
      await tx.update(person).set({ pendingEmail: free ? input.e : null }).where(eq(person.id, actor.id));
      // A new request voids the code of the one before, whatever the address.
      return issueCode(tx, deps.config.jwtSecret, actor.id, 'EMAIL');
    });
    if (!free) return;
    await deps.outbox.send({
      channel: 'email',
      to: input.e,
      subject: 'Confirm your new e-mail address',
      body: `Your Pariksha Mitra code to confirm this e-mail address is ${SECRET_MASK}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`,
      secret: code,
    });
  }, actor.id);
  return { success: true as const, msg: MSG.emailCodeSent };
}

/**
 * POST /Person/me/email/verify: the code sent to the new address makes it the person's e-mail
 * (verified). Guesses are limited like other codes. Should the address have been taken meanwhile,
 * 409: the person holding the code reads that address's mail, so that tells them nothing new.
 */
export async function verifyEmailChange(deps: Deps, actor: Principal, input: { code: string; ip: string }) {
  const limits = codeGuessLimits('EMAIL', actor.id, input.ip);
  await deps.rates.consumeAll(limits);
  const updated = await transaction(deps.db, async (tx) => {
    if (!(await consumeCode(tx, deps.config.jwtSecret, actor.id, 'EMAIL', input.code))) return null;
    const before = await first(tx.select().from(person).where(eq(person.id, actor.id)));
    if (!before?.pendingEmail) return null;
    await assertUnique(tx, before.mobile, before.pendingEmail, before.id);
    const after = (await first(
      tx
        .update(person)
        .set({ email: before.pendingEmail, emailVerified: true, pendingEmail: null, updatedAt: Date.now() })
        .where(eq(person.id, actor.id))
        .returning(),
    ))!;
    await logActivity(tx, {
      actor,
      action: 'UPDATE',
      entity: 'person',
      entityId: actor.id,
      oldValue: { email: before.email, emailVerified: before.emailVerified },
      newValue: { email: after.email, emailVerified: true, reason: 'verified by code' },
    });
    return after;
  });
  if (!updated) throw badRequest(MSG.invalidCode);
  await deps.rates.refund(limits);
  return { success: true as const, msg: MSG.emailChanged, email: updated.email };
}

/** PATCH /Person/me: the signed-in person corrects their own name. */
export async function updateOwnProfile(deps: Deps, actor: Principal, input: { n: string }) {
  const updated = await transaction(deps.db, async (tx) => {
    const before = await first(tx.select().from(person).where(eq(person.id, actor.id)));
    if (!before) throw unauthenticated();
    const after = (await first(tx.update(person).set({ name: input.n, updatedAt: Date.now() }).where(eq(person.id, actor.id)).returning()))!;
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'person', entityId: actor.id, oldValue: { name: before.name }, newValue: { name: after.name } });
    return after;
  });
  return { success: true as const, msg: MSG.profileUpdated, name: updated.name };
}


/**
 * POST /UserLogin/createUserOnBehalf: a signed-in person registers someone below them. The new
 * account gets a generated password, sent to its mobile (and e-mail), and must change it (iprr).
 */
export async function createOnBehalf(
  deps: Deps,
  actor: Principal,
  input: { n: string; m: string; e: string | null; p?: string | undefined; ip: string; lang?: SmsLang },
) {
  const parentId = input.p ?? actor.id;
  // Placing an account under someone else is an admin's act, not any member's.
  if (parentId !== actor.id && !actor.permissions.has('CREATE_PERSON')) throw forbidden(MSG.permissionDenied);
  // Every creation sends a password by SMS (and e-mail) to an address the actor chose: limited per
  // actor and per IP before anything else happens.
  await deps.rates.consumeAll([
    ['onBehalfActor', actor.id],
    ['onBehalfIp', input.ip],
  ]);
  await assertReferrerAllowed(deps.db, parentId);
  await assertUnique(deps.db, input.m, input.e);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const row = await transaction(deps.db, async (tx) => {
    await assertReferrerAllowed(tx, parentId);
    await assertUnique(tx, input.m, input.e);
    const memberRole = await findRole(tx, DEFAULT_ROLE);
    const created = (await first(
      tx
        .insert(person)
        .values({
          name: input.n,
          mobile: input.m,
          email: input.e,
          parentId,
          roleId: memberRole?.id ?? null,
          passwordHash,
          iprr: 1,
        })
        .returning(),
    ))!;
    if (memberRole) await copyRolePermissions(tx, created.id, memberRole.id);
    await logActivity(tx, { actor, action: 'CREATE', entity: 'person', entityId: created.id, newValue: await auditView(tx, created) });
    return created;
  });
  // The outbox keeps the text with the password masked; only the delivered message carries it.
  // The same text goes by e-mail too when there is an address (docs/sms.md "Every code by SMS").
  const sms = smsMessage('account_created', row.mobile, { name: row.name, actor: actor.name, mobile: row.mobile.slice(3) }, { lang: smsLanguageOf(row, input.lang), secret: password });
  await deps.outbox.send(sms);
  if (row.email) await deps.outbox.send({ channel: 'email', to: row.email, subject: sms.subject, body: sms.body, secret: password });
  // The creator's screen says where the password went: the mobile the creator typed (docs/sms.md "Where the code went").
  return { success: true as const, id: row.id, msg: MSG.userCreated, sentTo: { sms: mobileEnding(row.mobile), email: row.email !== null } };
}

/**
 * POST /UserLogin/resetPassword: sends a reset code by e-mail (or SMS when the person has no
 * e-mail). Registered or not, active or not, the answer is the same text in the same time, and
 * the text names no channel: before the answer only the budgets are spent (keyed by what was
 * typed); looking the account up, issuing the code and sending it happen after it (afterAnswer;
 * docs/security.md).
 */
export async function requestReset(deps: Deps, input: { username: string; ip: string; lang?: SmsLang }) {
  const { key, label } = usernameKey(input.username);
  if (!key) throw badRequest(input.username.includes('@') ? MSG.invalidEmail : MSG.validMobile);
  await deps.rates.consumeAll(codeSendLimits('RESET', label, input.ip));
  deps.afterAnswer.run('password reset code', async () => {
    const row = await findByMobileOrEmail(deps.db, key);
    if (!row || row.status !== 'ACTIVE') return;
    const code = await issueCode(deps.db, deps.config.jwtSecret, row.id, 'RESET');
    // By e-mail when the account has one, else by SMS through the provider (docs/sms.md "Every code by SMS").
    const sms = smsMessage('reset_code', row.mobile, {}, { lang: smsLanguageOf(row, input.lang), secret: code });
    await deps.outbox.send(row.email ? { channel: 'email', to: row.email, subject: sms.subject, body: sms.body, secret: code } : sms);
  }, `RESET ${label}`);
  return { success: true as const, msg: MSG.resetCodeSent };
}

/**
 * The person id a code guess for an unknown account is checked against: no person has it, so the
 * guess runs the same statements as one for a registered account and finds no code
 * (docs/security.md).
 */
const NO_PERSON = '';

async function setPassword(
  deps: Deps,
  row: PersonRow,
  password: string,
  opts: {
    actor: Actor;
    iprr: number;
    reason: string;
    /** Runs first in the write's transaction (only database work): false writes nothing. */
    beforeWrite?: (tx: DB) => Promise<boolean>;
    /** The session a password change is made in, which stays; every other session ends. */
    keepSession?: string;
  },
): Promise<PersonRow | null> {
  const passwordHash = await hashPassword(password);
  return transaction(deps.db, async (tx) => {
    if (opts.beforeWrite && !(await opts.beforeWrite(tx))) return null;
    const updated = (await first(
      tx
        .update(person)
        .set({ passwordHash, iprr: opts.iprr, tokenVersion: sql`${person.tokenVersion} + 1`, updatedAt: Date.now() })
        .where(eq(person.id, row.id))
        .returning(),
    ))!;
    // The version bump already voids every token issued so far (a copy of the current one too);
    // ending the sessions also removes their push tokens and keeps the session list true.
    await endSessionsOf(tx, row.id, { except: opts.keepSession });
    await logActivity(tx, {
      actor: opts.actor,
      action: 'UPDATE',
      entity: 'person',
      entityId: row.id,
      oldValue: { iprr: row.iprr },
      newValue: { iprr: updated.iprr, password: 'changed', reason: opts.reason },
    });
    return updated;
  });
}

/**
 * The one code a reset request tests (docs/security.md "Rate limits, enumeration, passwords, the outbox": one guess per request). docs/api.md's order is
 * `code:newPassword`; `newPassword:code` is accepted too: when exactly one part has 6 digits it is
 * the code, and when both have, the first (`user`) part is.
 */
function resetCodeOf(b: { user: string; pass: string }): { code: string; password: string } | null {
  if (/^\d{6}$/.test(b.user)) return { code: b.user, password: b.pass };
  if (/^\d{6}$/.test(b.pass)) return { code: b.pass, password: b.user };
  return null;
}

/**
 * POST /UserLogin/updatePasswordWithResetCode: Basic auth carries the 6-digit code and the new
 * password. The guess spends its budgets first; registered or not, the same argon2 hash is made
 * and a wrong code gets the same answer. The account's own mobile and e-mail are refused as the
 * password only once the code is proved right (before, the answer would tell them apart).
 */
export async function resetWithCode(deps: Deps, input: { username: string; basic: { user: string; pass: string } | null; ip: string }) {
  const b = input.basic;
  if (!b || !b.user || !b.pass) throw badRequest(MSG.passwordAndOtpRequired);
  const { key, label } = usernameKey(input.username);
  if (!key) throw badRequest(input.username.includes('@') ? MSG.invalidEmail : MSG.validMobile);
  const pick = resetCodeOf(b);
  if (!pick) throw badRequest(MSG.passwordAndOtpRequired);
  // Only what the caller typed is compared here, so the answer is the same for every account.
  assertPasswordAllowed(pick.password, 'email' in key ? { email: key.email } : { mobile: key.mobile });
  const limits = codeGuessLimits('RESET', label, input.ip);
  await deps.rates.consumeAll(limits);
  const row = await findByMobileOrEmail(deps.db, key);
  if (!row) {
    // What setPassword does for a wrong code: the hash, then the code looked up in a transaction.
    await hashPassword(pick.password);
    await transaction(deps.db, (tx) => consumeCode(tx, deps.config.jwtSecret, NO_PERSON, 'RESET', pick.code));
    throw badRequest(MSG.invalidCode);
  }
  let done: PersonRow | null;
  try {
    done = await setPassword(deps, row, pick.password, {
      actor: { id: row.id, name: row.name },
      iprr: 0,
      reason: 'reset code',
      beforeWrite: async (tx) => {
        if (!(await consumeCode(tx, deps.config.jwtSecret, row.id, 'RESET', pick.code))) return false;
        // Throwing rolls the transaction back: the code stays usable with another password.
        assertPasswordAllowed(pick.password, row);
        return true;
      },
    });
  } catch (err) {
    await deps.rates.refund(limits);
    throw err;
  }
  if (!done) throw badRequest(MSG.invalidCode);
  await deps.rates.refund(limits);
  return { success: true as const, msg: MSG.passwordResetSuccessful };
}

/** PATCH /UserLogin/updatePasswordWithOldPassword. Older tokens stop working; a new one is returned. */
export async function changePassword(deps: Deps, actor: Principal, input: { oldPassword: string; newPassword: string }) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, actor.id)));
  if (!row) throw unauthenticated();
  assertPasswordAllowed(input.newPassword, row);
  // Guessing the old password with a stolen token is limited like guessing it at login: a point
  // spent before the check, given back when the old password was right.
  const limits: Limit[] = [['loginPair', `id:${row.id}`]];
  await deps.rates.consumeAll(limits);
  if (!(await verifyPassword(row.passwordHash, input.oldPassword))) throw badRequest(MSG.oldPasswordWrong);
  await deps.rates.refund(limits);
  const updated = await setPassword(deps, row, input.newPassword, { actor, iprr: 0, reason: 'changed by owner', keepSession: actor.sessionId });
  if (!updated) throw badRequest(MSG.passwordResetFailed);
  // This device stays signed in, in the same session, with a token of the new version. Should the
  // session have been ended meanwhile (log out of all devices in another tab), a new one starts:
  // the old password was just proved.
  return loginResponse(deps, updated, MSG.passwordChanged, await liveSession(deps.db, updated.id, actor.sessionId));
}

/** POST /UserLogin/logout: ends the session of the token that asks (docs/security.md "Sessions and logout"). */
export async function logout(deps: Deps, actor: Principal) {
  await endSession(deps.db, actor.id, actor.sessionId);
  return { success: true as const, msg: MSG.loggedOut };
}

/** POST /UserLogin/logoutAll: ends every session of the person, this one included. */
export async function logoutAll(deps: Deps, actor: Principal) {
  await transaction(deps.db, async (tx) => {
    await endSessionsOf(tx, actor.id);
    await logActivity(tx, { actor, action: 'UPDATE', entity: 'person', entityId: actor.id, newValue: { sessions: 'all ended' } });
  });
  return { success: true as const, msg: MSG.loggedOutEverywhere };
}

/** PUT /UserLogin/resetUserPasswordByAdmin: the person must change the password at next login. */
export async function adminReset(deps: Deps, actor: Principal, input: { personId: string; password: string }) {
  const row = await first(deps.db.select().from(person).where(eq(person.id, input.personId)));
  if (!row) throw notFound('Person not found');
  // Who may reset whom (persons/privileges.ts): checked before the slow hash, and again in the write.
  await assertMayResetPassword(deps.db, actor.id, row.id);
  assertPasswordAllowed(input.password, row);
  await setPassword(deps, row, input.password, {
    actor,
    iprr: 1,
    reason: 'reset by admin',
    beforeWrite: (tx) => assertMayResetPassword(tx, actor.id, row.id),
  });
  return { success: true as const, msg: MSG.passwordResetSuccessful };
}

/**
 * POST /OTP/requestOTP: the same answer in the same time whether or not the mobile is registered:
 * the lookup, the code and the SMS happen after the answer (afterAnswer; docs/security.md).
 */
export async function requestOtp(deps: Deps, input: { mobile: string; ip: string; lang?: SmsLang }) {
  await deps.rates.consumeAll(codeSendLimits('OTP', input.mobile, input.ip));
  deps.afterAnswer.run('login OTP', async () => {
    const row = await findByMobileOrEmail(deps.db, { mobile: input.mobile });
    if (!row || row.status !== 'ACTIVE') return;
    const code = await issueCode(deps.db, deps.config.jwtSecret, row.id, 'OTP');
    // Not delivered in time, it goes again to the person's e-mail, if any (docs/sms.md "Delivery reports and the e-mail fallback").
    const fallback = row.email ? { emailFallback: { personId: row.id } } : {};
    await deps.outbox.send(smsMessage('login_otp', row.mobile, {}, { lang: smsLanguageOf(row, input.lang), secret: code, ...fallback }));
  }, `OTP ${input.mobile}`);
  return { success: true as const, msg: MSG.otpSent };
}

/**
 * POST /OTP/verifyOTPAndSignIn: Basic auth carries `mobile:otp`. A right code verifies the mobile.
 * Its budgets are not the password's: an attacker who locked password login for an account from
 * their address (or everywhere) has not locked its owner out of signing in with a code.
 */
export async function verifyOtp(deps: Deps, input: { basic: { user: string; pass: string } | null; ip: string }) {
  const b = input.basic;
  if (!b || !b.user || !b.pass) throw badRequest(MSG.credentialsRequired);
  const mobile = normaliseMobile(b.user);
  if (!mobile) throw badRequest(MSG.validMobile);
  const limits = codeGuessLimits('OTP', mobile, input.ip);
  await deps.rates.consumeAll(limits);
  const row = await findByMobileOrEmail(deps.db, { mobile });
  // A guess for an unknown mobile runs the same transaction as one for a registered account.
  const ok = await transaction(deps.db, async (tx) => {
    if (!(await consumeCode(tx, deps.config.jwtSecret, row?.id ?? NO_PERSON, 'OTP', b.pass.trim())) || !row) return false;
    await tx.update(person).set({ mobileVerified: true }).where(eq(person.id, row.id));
    return true;
  });
  if (!row || !ok) throw unauthenticated(MSG.invalidCode);
  await deps.rates.refund(limits);
  if (row.status !== 'ACTIVE') throw forbidden(MSG.accountInactive);
  return loginResponse(deps, { ...row, mobileVerified: true });
}
