import { isEmailAddress, normaliseUsername } from '@pm/protocol/text-rules';

/**
 * The username as the server expects it: a username without '@' is a mobile and gets +91
 *; an e-mail is sent trimmed and lower-cased. Anything else is sent as typed and
 * the server answers with its own message.
 */
export function toUsername(raw: string): string {
  const key = normaliseUsername(raw);
  if (!key) return raw.trim();
  return 'email' in key ? key.email : key.mobile;
}

/** As the server's `emailSchema` accepts it (the same rule, without loading zod's schemas here). */
export const isEmail = isEmailAddress;

/** Exactly ten digits (docs/glossary.md "Fixed values": +91 is added when sending). */
export const isMobile = (value: string) => /^\d{10}$/.test(value);
