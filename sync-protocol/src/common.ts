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

/**
 * Characters no name or description may hold (issue 16): controls (Cc: NUL, escape, newline ...),
 * format characters (Cf: the bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, the
 * marks U+200E/U+200F/U+061C, zero-width space U+200B, joiners U+200C/U+200D, word joiner U+2060,
 * BOM U+FEFF, the invisible tag characters ...), line and paragraph separators, unpaired
 * surrogates and private-use characters. They make one name look like another, hide text, or
 * reorder what is shown after them in lists, the activity log and messages. A whole category
 * rather than a list: the next invisible character Unicode adds is refused too.
 */
const UNSAFE_CHAR = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}]/u;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
/** The Indic script blocks, Devanagari (U+0900) to Sinhala (U+0D80), 128 code points each. */
const INDIC_FIRST = 0x0900;
const INDIC_END = 0x0e00;

function indicBlock(cp: number | undefined): number | null {
  return cp !== undefined && cp >= INDIC_FIRST && cp < INDIC_END ? (cp - INDIC_FIRST) >> 7 : null;
}

/**
 * Whether a text holds a character of UNSAFE_CHAR. ZWJ and ZWNJ are the exception Hindi needs:
 * Devanagari writes with them inside words (क्‍ष keeps a half form, क्‌ष shows the virama), and
 * so do the other Indic scripts of Indian names (Bengali, Malayalam chillu ...). They are kept
 * only between two characters of one Indic block, where they shape a conjunct and cannot hide
 * or reorder anything; anywhere else (Latin text, a name's edge, next to another joiner) they
 * are refused. `multiline` lets descriptions keep line breaks and tabs.
 */
export function hasUnsafeChars(text: string, opts: { multiline?: boolean } = {}): boolean {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) ?? 0);
  return cps.some((cp, i) => {
    if (opts.multiline && (cp === 0x0a || cp === 0x0d || cp === 0x09)) return false;
    if (!UNSAFE_CHAR.test(String.fromCodePoint(cp))) return false;
    if (cp !== ZWJ && cp !== ZWNJ) return true;
    const before = indicBlock(cps[i - 1]);
    return before === null || before !== indicBlock(cps[i + 1]);
  });
}

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

/** `{ permission }` items as in the login response (spec §3). */
export const permissionRefSchema = z.strictObject({ permission: z.string() });

/** Success envelope for simple mutations. */
export type Ok<T extends object = object> = { success: true; msg?: string } & T;
