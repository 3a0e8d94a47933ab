import type { ParseKeys } from 'i18next';

/**
 * Validators return translation keys rather than texts; the inputs translate them when they
 * render, so a message on screen follows a change of language. The texts are the server's own
 * (sync-protocol MSG, translated in messages.json), so the form and the API say the same.
 */
export type ContactErrorKey = ParseKeys<['contact', 'messages']>;

export type ContactValues = { name: string; email: string; mobile: string; description: string };

/** Loose on purpose: the server checks the address properly and answers with its message. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Name, mobile and description required, e-mail optional, mobile 10 digits. */
export const contactRules = {
  name: (v: string): ContactErrorKey | null => (v.trim() ? null : 'messages:nameRequired'),
  email: (v: string): ContactErrorKey | null => (!v.trim() || EMAIL.test(v.trim()) ? null : 'messages:validEmail'),
  mobile: (v: string): ContactErrorKey | null => (!v ? 'messages:mobileRequired' : /^\d{10}$/.test(v) ? null : 'messages:validMobile'),
  description: (v: string): ContactErrorKey | null => (v.trim() ? null : 'contact:errors.descriptionRequired'),
};

/**
 * What the mobile field keeps of what was typed or pasted: digits only, at most 10; a pasted
 * full number loses its +91 (or trunk 0) prefix.
 */
export function mobileDigits(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits.slice(0, 10);
}
