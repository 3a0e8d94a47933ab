const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789@#$%';

/**
 * A random password for the admin's person and reset dialogs (10 random characters, docs/glossary.md "Fixed values"),
 * drawn from the browser's CSPRNG with rejection sampling so every character is equally likely.
 * Look-alike characters (0/O, 1/l/I) are left out: the admin reads it out to the person.
 */
export function generatePassword(length = 10, random: (a: Uint8Array) => Uint8Array = (a) => crypto.getRandomValues(a)): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of random(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}

export const PASSWORD_ALPHABET = ALPHABET;

/** docs/glossary.md "Fixed values": a mobile with no '@' and exactly 10 characters gets the prefix +91. */
export function withIndiaPrefix(mobile: string): string {
  const m = mobile.trim();
  return !m.includes('@') && m.length === 10 ? `+91${m}` : m;
}

/** The name's words are capitalised as typed. */
export function capitaliseWords(name: string): string {
  return name.replace(/(^|[\s.-])(\p{Ll})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase());
}
