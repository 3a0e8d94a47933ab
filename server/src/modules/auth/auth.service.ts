import { randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LoginResponse } from '../../../../sync-protocol/src/auth';
import { emailSchema, normaliseMobile, normaliseUsername } from '../../../../sync-protocol/src/common';
import { MSG } from '../../../../sync-protocol/src/messages';
import { DEFAULT_ROLE } from '../../../../sync-protocol/src/role';
import type { Deps, Principal } from '../../context';
import { person } from '../../db/schema';
import { type Actor, logActivity } from '../../lib/activity';
import { consumeCode, issueCode } from '../../lib/codes';
import { AppError, badRequest, conflict, forbidden, notFound, unauthenticated } from '../../lib/errors';
import { signToken } from '../../lib/jwt';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import {
  auditView,
  copyRolePermissions,
  findByMobileOrEmail,
  findRole,
  type PersonRow,
  permissionsOf,
  roleOf,
} from '../persons/persons.repo';

const PASSWORD_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password of `length` characters from the CSPRNG (spec §9: generated passwords are 10). */
export function generatePassword(length = 10): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_CHARS[randomInt(0, PASSWORD_CHARS.length)];
  return out;
}

export async function loginResponse(deps: Deps, row: PersonRow, msg: string = MSG.loginSuccessful): Promise<LoginResponse> {
  const token = await signToken(deps.config.jwtSecret, { sub: row.id, tv: row.tokenVersion });
  return {
    success: true,
    msg,
    token,
    id: row.id,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    r: { name: roleOf(deps.db, row.roleId)?.name ?? DEFAULT_ROLE },
    permissions: permissionsOf(deps.db, row.id).map((p) => ({ permission: p })),
    tac: row.totalAmountCollected,
    iprr: row.iprr,
    dq: row.donationQuota,
    aw: row.amountWithdrawable,
    curr_orbit: row.currentOrbit,
    taw: row.totalAmountWithdrawable,
  };
}

function usernameKey(username: string) {
  let key = normaliseUsername(username);
  // Anything with '@' is meant as an e-mail, but only a well-formed one is (spec §5 'Invalid email').
  if (key && 'email' in key && !emailSchema.safeParse(key.email).success) key = null;
  return { key, label: key ? ('email' in key ? key.email : key.mobile) : username.trim().toLowerCase() };
}

/**
 * The rate-limit key of an account: its id when the username names one, so that failures through
 * its e-mail and through its mobile share one budget; the written username otherwise.
 */
function accountKey(row: PersonRow | undefined, label: string): string {
  return row ? `id:${row.id}` : `name:${label}`;
}

/** POST /UserLogin/login. Only failures count towards the rate limits. */
export async function login(deps: Deps, input: { username: string; password: string; ip: string }) {
  if (!input.username.trim() || !input.password) throw badRequest(MSG.credentialsRequired);
  const { key, label } = usernameKey(input.username);
  const row = key ? findByMobileOrEmail(deps.db, key) : undefined;
  const account = accountKey(row, label);
  await deps.rates.check('loginIp', input.ip);
  await deps.rates.check('loginAccount', account);
  const ok = await verifyPassword(row?.passwordHash ?? null, input.password);
  if (!row || !ok) {
    await deps.rates.penalise('loginIp', input.ip);
    await deps.rates.penalise('loginAccount', account);
    throw unauthenticated(MSG.badCredentials);
  }
  if (row.status !== 'ACTIVE') throw forbidden(MSG.accountInactive);
  return loginResponse(deps, row);
}

/** POST /UserLogin — signup; the new person gets the MEMBER role and its permissions. */
export async function signup(
  deps: Deps,
  input: { n: string; m: string; e: string | null; password: string; p: string },
) {
  const referrer = deps.db.select({ id: person.id }).from(person).where(eq(person.id, input.p)).get();
  if (!referrer) throw badRequest(MSG.referrerNotFound);
  assertUnique(deps, input.m, input.e);
  const passwordHash = await hashPassword(input.password);
  const row = deps.db.transaction((tx) => {
    assertUnique(deps, input.m, input.e);
    const memberRole = findRole(tx, DEFAULT_ROLE);
    const created = tx
      .insert(person)
      .values({
        name: input.n,
        mobile: input.m,
        email: input.e,
        parentId: referrer.id,
        roleId: memberRole?.id ?? null,
        passwordHash,
      })
      .returning()
      .get();
    if (memberRole) copyRolePermissions(tx, created.id, memberRole.id);
    logActivity(tx, {
      actor: { id: created.id, name: created.name },
      action: 'CREATE',
      entity: 'person',
      entityId: created.id,
      newValue: auditView(tx, created),
    });
    return created;
  });
  return loginResponse(deps, row, MSG.userCreated);
}

function assertUnique(deps: Deps, mobile: string, email: string | null, exceptId?: string) {
  const byMobile = findByMobileOrEmail(deps.db, { mobile });
  if (byMobile && byMobile.id !== exceptId) throw conflict(MSG.mobileTaken);
  if (email) {
    const byEmail = findByMobileOrEmail(deps.db, { email });
    if (byEmail && byEmail.id !== exceptId) throw conflict(MSG.emailTaken);
  }
}
export { assertUnique };

/**
 * POST /UserLogin/createUserOnBehalf: a signed-in person registers someone below them. The new
 * account gets a generated password, sent to its mobile (and e-mail), and must change it (iprr).
 */
export async function createOnBehalf(
  deps: Deps,
  actor: Principal,
  input: { n: string; m: string; e: string | null; p?: string | undefined },
) {
  const parentId = input.p ?? actor.id;
  // Placing an account under someone else is an admin's act, not any member's.
  if (parentId !== actor.id && !actor.permissions.has('CREATE_PERSON')) throw forbidden(MSG.permissionDenied);
  if (!deps.db.select({ id: person.id }).from(person).where(eq(person.id, parentId)).get()) {
    throw badRequest(MSG.referrerNotFound);
  }
  assertUnique(deps, input.m, input.e);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const row = deps.db.transaction((tx) => {
    assertUnique(deps, input.m, input.e);
    const memberRole = findRole(tx, DEFAULT_ROLE);
    const created = tx
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
      .returning()
      .get();
    if (memberRole) copyRolePermissions(tx, created.id, memberRole.id);
    logActivity(tx, { actor, action: 'CREATE', entity: 'person', entityId: created.id, newValue: auditView(tx, created) });
    return created;
  });
  const text = `Welcome to Pariksha Mitra, ${row.name}. ${actor.name} has registered you. Log in with ${row.mobile.slice(3)} and the password ${password}, then change it.`;
  await deps.outbox.send({ channel: 'sms', to: row.mobile, subject: 'Your Pariksha Mitra account', body: text });
  if (row.email) await deps.outbox.send({ channel: 'email', to: row.email, subject: 'Your Pariksha Mitra account', body: text });
  return { success: true as const, id: row.id, msg: MSG.userCreated };
}

/**
 * POST /UserLogin/resetPassword: sends a reset code by e-mail (or SMS when the person has no
 * e-mail). The answer is the same whether or not the account exists, so that it cannot be used
 * to find out who is registered.
 */
export async function requestReset(deps: Deps, input: { username: string; ip: string }) {
  const { key, label } = usernameKey(input.username);
  if (!key) throw badRequest(input.username.includes('@') ? MSG.invalidEmail : MSG.validMobile);
  const row = findByMobileOrEmail(deps.db, key);
  await deps.rates.consume('codeIp', input.ip);
  await deps.rates.consume('codeAccount', `reset:${accountKey(row, label)}`);
  if (row && row.status === 'ACTIVE') {
    const code = issueCode(deps.db, deps.config.jwtSecret, row.id, 'RESET');
    const body = `Your Pariksha Mitra password reset code is ${code}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`;
    const sent = row.email
      ? await deps.outbox.send({ channel: 'email', to: row.email, subject: 'Password reset code', body })
      : await deps.outbox.send({ channel: 'sms', to: row.mobile, subject: 'Password reset code', body });
    if (!sent.delivered) throw new AppError('INTERNAL', MSG.emailNotSent);
  }
  return { success: true as const, msg: MSG.resetCodeSent };
}

async function setPassword(
  deps: Deps,
  row: PersonRow,
  password: string,
  opts: { actor: Actor; iprr: number; reason: string; beforeWrite?: (tx: Parameters<Parameters<Deps['db']['transaction']>[0]>[0]) => boolean },
): Promise<PersonRow | null> {
  const passwordHash = await hashPassword(password);
  return deps.db.transaction((tx) => {
    if (opts.beforeWrite && !opts.beforeWrite(tx)) return null;
    const updated = tx
      .update(person)
      .set({ passwordHash, iprr: opts.iprr, tokenVersion: sql`${person.tokenVersion} + 1`, updatedAt: Date.now() })
      .where(eq(person.id, row.id))
      .returning()
      .get();
    logActivity(tx, {
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
 * POST /UserLogin/updatePasswordWithResetCode: Basic auth carries the new password and the
 * 6-digit code. Either order is accepted (`code:password` or `password:code`); a part is taken as
 * the code only if it is a live code of this person.
 */
export async function resetWithCode(deps: Deps, input: { username: string; basic: { user: string; pass: string } | null; ip: string }) {
  const b = input.basic;
  if (!b || !b.user || !b.pass) throw badRequest(MSG.passwordAndOtpRequired);
  const { key, label } = usernameKey(input.username);
  if (!key) throw badRequest(input.username.includes('@') ? MSG.invalidEmail : MSG.validMobile);
  const row = findByMobileOrEmail(deps.db, key);
  const account = accountKey(row, label);
  await deps.rates.check('loginIp', input.ip);
  await deps.rates.check('loginAccount', account);
  const candidates = [
    { code: b.user, password: b.pass },
    { code: b.pass, password: b.user },
  ].filter((x) => /^\d{6}$/.test(x.code));
  if (candidates.length === 0) throw badRequest(MSG.passwordAndOtpRequired);
  if (row) {
    for (const cand of candidates) {
      if (cand.password.length < 4) continue;
      const done = await setPassword(deps, row, cand.password, {
        actor: { id: row.id, name: row.name },
        iprr: 0,
        reason: 'reset code',
        beforeWrite: (tx) => consumeCode(tx, deps.config.jwtSecret, row.id, 'RESET', cand.code),
      });
      if (done) return { success: true as const, msg: MSG.passwordResetSuccessful };
    }
    if (candidates.every((cand) => cand.password.length < 4)) throw badRequest(MSG.passwordMin);
  }
  await deps.rates.penalise('loginIp', input.ip);
  await deps.rates.penalise('loginAccount', account);
  throw badRequest(MSG.invalidCode);
}

/** PATCH /UserLogin/updatePasswordWithOldPassword. Older tokens stop working; a new one is returned. */
export async function changePassword(deps: Deps, actor: Principal, input: { oldPassword: string; newPassword: string }) {
  const row = deps.db.select().from(person).where(eq(person.id, actor.id)).get();
  if (!row) throw unauthenticated();
  // Guessing the old password with a stolen token is limited like guessing it at login.
  await deps.rates.check('loginAccount', accountKey(row, ''));
  if (!(await verifyPassword(row.passwordHash, input.oldPassword))) {
    await deps.rates.penalise('loginAccount', accountKey(row, ''));
    throw badRequest(MSG.oldPasswordWrong);
  }
  const updated = await setPassword(deps, row, input.newPassword, { actor, iprr: 0, reason: 'changed by owner' });
  if (!updated) throw badRequest(MSG.passwordResetFailed);
  return loginResponse(deps, updated, MSG.passwordChanged);
}

/** PUT /UserLogin/resetUserPasswordByAdmin: the person must change the password at next login. */
export async function adminReset(deps: Deps, actor: Principal, input: { personId: string; password: string }) {
  const row = deps.db.select().from(person).where(eq(person.id, input.personId)).get();
  if (!row) throw notFound('Person not found');
  await setPassword(deps, row, input.password, { actor, iprr: 1, reason: 'reset by admin' });
  return { success: true as const, msg: MSG.passwordResetSuccessful };
}

/** POST /OTP/requestOTP: same answer whether or not the mobile is registered. */
export async function requestOtp(deps: Deps, input: { mobile: string; ip: string }) {
  await deps.rates.consume('codeIp', input.ip);
  await deps.rates.consume('codeAccount', `otp:${input.mobile}`);
  const row = findByMobileOrEmail(deps.db, { mobile: input.mobile });
  if (row && row.status === 'ACTIVE') {
    const code = issueCode(deps.db, deps.config.jwtSecret, row.id, 'OTP');
    await deps.outbox.send({
      channel: 'sms',
      to: row.mobile,
      subject: 'Login OTP',
      body: `${code} is your Pariksha Mitra login OTP. It is valid for 10 minutes. Do not share it.`,
    });
  }
  return { success: true as const, msg: MSG.otpSent };
}

/** POST /OTP/verifyOTPAndSignIn: Basic auth carries `mobile:otp`. A right code verifies the mobile. */
export async function verifyOtp(deps: Deps, input: { basic: { user: string; pass: string } | null; ip: string }) {
  const b = input.basic;
  if (!b || !b.user || !b.pass) throw badRequest(MSG.credentialsRequired);
  const mobile = normaliseMobile(b.user);
  if (!mobile) throw badRequest(MSG.validMobile);
  const row = findByMobileOrEmail(deps.db, { mobile });
  const account = accountKey(row, mobile);
  await deps.rates.check('loginIp', input.ip);
  await deps.rates.check('loginAccount', account);
  const ok =
    row !== undefined &&
    deps.db.transaction((tx) => {
      if (!consumeCode(tx, deps.config.jwtSecret, row.id, 'OTP', b.pass.trim())) return false;
      tx.update(person).set({ mobileVerified: true }).where(eq(person.id, row.id)).run();
      return true;
    });
  if (!row || !ok) {
    await deps.rates.penalise('loginIp', input.ip);
    await deps.rates.penalise('loginAccount', account);
    throw unauthenticated(MSG.invalidCode);
  }
  if (row.status !== 'ACTIVE') throw forbidden(MSG.accountInactive);
  return loginResponse(deps, { ...row, mobileVerified: true });
}
