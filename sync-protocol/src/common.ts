import { z } from 'zod';
import { MSG } from './messages';
import { hasUnsafeChars, normaliseMobile } from './text-rules';

// The plain rules (no zod), for the client modules that need them without building every schema
// of this file (the login page: docs/benchmarks.md "bench:lighthouse"): re-exported, so that `./common` still has them all.
export { hasUnsafeChars, isEmailAddress, MOBILE_PREFIX, normaliseMobile, normaliseUsername } from './text-rules';

/** Languages of the app and of question translations (docs/glossary.md "Languages"). */
export const LANGS = ['en', 'hi'] as const;
export const langSchema = z.enum(LANGS);
export type Lang = z.infer<typeof langSchema>;

/** Language codes a translation may use (question-set language list adds mr, docs/glossary.md "Languages"). */
export const transLangSchema = z.string().regex(/^[a-z]{2}$/);

export const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, { error: 'Invalid id' });

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

/** A person's name (signup, on-behalf, admin create and update): trimmed, 1–100, no unsafe characters. */
export const personNameSchema = z
  .string({ error: MSG.nameRequired })
  .trim()
  .min(1, { error: MSG.nameRequired })
  .max(100)
  .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters });

/** A free-text description (roles, permissions): up to 500, line breaks allowed, no other unsafe characters. */
export const descriptionSchema = z
  .string()
  .trim()
  .max(500)
  .refine((v) => !hasUnsafeChars(v, { multiline: true }), { error: MSG.unsafeCharacters });

export const paginationSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** `{ permission }` items as in the login response (docs/api.md). */
export const permissionRefSchema = z.strictObject({ permission: z.string() });

/** Success envelope for simple mutations. */
export type Ok<T extends object = object> = { success: true; msg?: string } & T;
