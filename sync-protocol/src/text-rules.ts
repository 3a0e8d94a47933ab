/*
 * Text rules with no zod in them: what the client's first pages (the login and signup forms)
 * need, without loading zod's schemas and building every schema of ./common (docs/benchmarks.md "bench:lighthouse": the
 * login page's blocking time). ./common re-exports them and builds its schemas on them, so the
 * server and the client apply the same rules.
 */
import { regexes } from 'zod/v4/core';

/** Mobiles are stored with the +91 prefix (docs/glossary.md "Fixed values"). */
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

/** A username without '@' is a mobile and gets +91 (docs/glossary.md "Fixed values"). */
export function normaliseUsername(username: string): { email: string } | { mobile: string } | null {
  const u = username.trim();
  if (u.includes('@')) return { email: u.toLowerCase() };
  const mobile = normaliseMobile(u);
  return mobile ? { mobile } : null;
}

/**
 * Whether a text is an e-mail address as `emailSchema` (./common) accepts it: trimmed and
 * lower-cased, at most 254 characters, and matching zod's own e-mail pattern (the one `z.email()`
 * checks against).
 */
export function isEmailAddress(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  return v.length <= 254 && regexes.email.test(v);
}

/**
 * Characters no name or description may hold (docs/security.md "Referrals and names"): controls (Cc: NUL, escape, newline ...),
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
