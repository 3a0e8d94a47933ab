import { z } from 'zod';
import { MSG } from './messages';

/** Languages of the app and of question translations (spec §3). */
export const LANGS = ['en', 'hi'] as const;
export const langSchema = z.enum(LANGS);
export type Lang = z.infer<typeof langSchema>;

/** Language codes a translation may use (question-set language list adds mr, spec §3). */
export const transLangSchema = z.string().regex(/^[a-z]{2}$/);

export const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, { error: 'Invalid id' });

/** Mobiles are stored with the +91 prefix (spec §5). */
export const MOBILE_PREFIX = '+91';

/**
 * Accepts a 10-digit mobile, optionally written with +91 / 91 / spaces, and returns the stored
 * form (+91 followed by the 10 digits), or null when it is not a 10-digit Indian mobile.
 */
export function normaliseMobile(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, '');
  const m = /^(?:\+?91)?(\d{10})$/.exec(digits);
  return m ? MOBILE_PREFIX + m[1] : null;
}

/** A username without '@' is a mobile and gets +91 (spec §5 Login). */
export function normaliseUsername(username: string): { email: string } | { mobile: string } | null {
  const u = username.trim();
  if (u.includes('@')) return { email: u.toLowerCase() };
  const mobile = normaliseMobile(u);
  return mobile ? { mobile } : null;
}

export const mobileSchema = z
  .string({ error: MSG.validMobile })
  .transform((v, ctx) => {
    const m = normaliseMobile(v);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: MSG.validMobile });
      return z.NEVER;
    }
    return m;
  });

export const emailSchema = z
  .string({ error: MSG.validEmail })
  .trim()
  .toLowerCase()
  .max(254, { error: MSG.validEmail })
  .pipe(z.email({ error: MSG.validEmail }));

/** An optional e-mail: absent, null or '' all mean "none". */
export const optionalEmailSchema = z
  .union([z.literal(''), z.null(), emailSchema])
  .optional()
  .transform((v) => (v ? v : null));

export const passwordSchema = z
  .string({ error: MSG.passwordMin })
  .min(4, { error: MSG.passwordMin })
  .max(128, { error: 'Password is too long' });

export const paginationSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** `{ permission }` items as in the login response (spec §3). */
export const permissionRefSchema = z.strictObject({ permission: z.string() });

/** Success envelope for simple mutations. */
export type Ok<T extends object = object> = { success: true; msg?: string } & T;
