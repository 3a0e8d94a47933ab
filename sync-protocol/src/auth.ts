import { z } from 'zod';
import { MSG } from './messages';
import {
  emailSchema,
  hasUnsafeChars,
  idSchema,
  mobileSchema,
  optionalEmailSchema,
  passwordSchema,
  permissionRefSchema,
} from './common';

/**
 * What is wrong with a password being set, whatever the account (docs/security.md "Rate limits, enumeration, passwords, the outbox"), as a key of MSG;
 * null when nothing is. The spec's length (4 to 128) and, beyond it, no password of only blanks
 * (spaces, zero-width and other invisible characters) and no control characters (NUL, newline,
 * escape ...), which no keyboard types on purpose. The server adds the checks that need the
 * account or the breached-password list (server/src/lib/password-policy.ts).
 */
export function passwordShapeProblem(
  password: string,
): 'passwordMin' | 'passwordTooLong' | 'passwordControlChars' | 'passwordBlank' | null {
  if ([...password].length < 4) return 'passwordMin';
  if (password.length > 128) return 'passwordTooLong';
  if (/\p{Cc}/u.test(password)) return 'passwordControlChars';
  if (!/[^\p{White_Space}\p{Cf}]/u.test(password)) return 'passwordBlank';
  return null;
}

/** A password being set: signup, change, admin reset. Old passwords keep `passwordSchema`. */
export const newPasswordSchema = z.string({ error: MSG.passwordMin }).superRefine((v, ctx) => {
  const problem = passwordShapeProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: MSG[problem] });
});

/** A person's full name as they give it (docs/api.md "Signup": at least 4 characters). */
export const fullNameSchema = z
  .string({ error: MSG.fullName })
  .trim()
  .min(4, { error: MSG.fullName })
  .max(100, { error: MSG.fullName })
  .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters });

/**
 * The signer's confirmation that they are 18 or older and accept the terms of use and the privacy
 * policy (docs/api.md "Signup"): exactly `true`.
 */
export const termsAcceptedSchema = z.literal(true, { error: MSG.termsRequired });

/**
 * POST /api/UserLogin — signup (docs/api.md "Signup"). `p` names the referrer (the lookup's
 * handle or a person id); `noInviter: true` instead says no one invited the person, and the server
 * places them under the trust's account (docs/api.md "Signup"). One of the two, never both.
 */
export const signupSchema = z
  .strictObject({
    n: fullNameSchema,
    m: mobileSchema,
    e: optionalEmailSchema,
    password: newPasswordSchema,
    /** Confirm password; the form always sends it, other callers may leave it out. */
    confirmPassword: z.string().max(128).optional(),
    p: z.string({ error: MSG.referrerRequired }).min(1, { error: MSG.referrerRequired }).max(64).optional(),
    noInviter: z.literal(true, { error: MSG.noInviterTrue }).optional(),
    terms: termsAcceptedSchema,
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    error: MSG.passwordMismatch,
    path: ['confirmPassword'],
  })
  .refine((v) => v.p !== undefined || v.noInviter === true, { error: MSG.referrerRequired, path: ['p'] })
  .refine((v) => v.p === undefined || v.noInviter === undefined, { error: MSG.inviterChoiceTwice, path: ['noInviter'] });

/** POST /api/UserLogin/acceptTerms — the signed-in person accepts the terms' current version. */
export const acceptTermsSchema = z.strictObject({
  terms: termsAcceptedSchema,
  /** The version the person was shown (GET /api/UserLogin/terms); another one is refused (409). */
  version: z.string({ error: MSG.termsVersionRequired }).min(1, { error: MSG.termsVersionRequired }).max(40),
});

/** What the signed-in person has accepted of the terms, in the login response and GET /api/UserLogin/terms. */
export const termsStateSchema = z.object({
  /** The installation's current version (TERMS_VERSION). */
  version: z.string(),
  /** Whether the person has accepted that version. */
  accepted: z.boolean(),
});
export type TermsState = z.infer<typeof termsStateSchema>;
export type SignupInput = z.input<typeof signupSchema>;

/** POST /api/UserLogin/createUserOnBehalf — a signed-in person registers someone under them. */
export const createOnBehalfSchema = z.strictObject({
  n: z
    .string({ error: MSG.fullName })
    .trim()
    .min(4, { error: MSG.fullName })
    .max(100)
    .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters }),
  m: mobileSchema,
  e: optionalEmailSchema,
  p: idSchema.optional(),
});

/** POST /api/UserLogin/resetPassword — request a reset code. */
export const requestResetSchema = z.strictObject({
  username: z.string({ error: MSG.credentialsRequired }).trim().min(1, { error: MSG.credentialsRequired }).max(254),
});

/** POST /api/UserLogin/updatePasswordWithResetCode — the code and new password travel in Basic auth. */
export const resetWithCodeSchema = requestResetSchema;

/** PATCH /api/UserLogin/updatePasswordWithOldPassword (docs/api.md). */
export const changePasswordSchema = z
  .strictObject({
    oldPassword: passwordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string().max(128).optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    error: MSG.passwordsNotSame,
    path: ['confirmPassword'],
  });

/** PUT /api/UserLogin/resetUserPasswordByAdmin. */
export const adminResetSchema = z.strictObject({
  personId: idSchema,
  password: newPasswordSchema,
});

/** POST /api/OTP/requestOTP. `token` is an optional captcha token. */
export const requestOtpSchema = z.strictObject({
  type: z.literal('mobile'),
  token: z.string().max(4096).optional(),
  mobile: mobileSchema,
});

/** POST /api/OTP/verifyOTPAndSignIn — mobile and OTP travel in Basic auth. */
export const verifyOtpSchema = z.strictObject({ type: z.literal('mobile') });

/** The login response (the session of docs/api.md). */
export const loginResponseSchema = z.object({
  success: z.literal(true),
  msg: z.string(),
  token: z.string(),
  id: z.string(),
  name: z.string(),
  mobile: z.string(),
  email: z.string().nullable(),
  r: z.object({ name: z.string() }),
  permissions: z.array(permissionRefSchema),
  tac: z.number(),
  iprr: z.number(),
  dq: z.number(),
  aw: z.number(),
  curr_orbit: z.number(),
  taw: z.number(),
  /** Whether the person has accepted the current terms; the app asks first when not (docs/api.md). */
  terms: termsStateSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export { emailSchema };
