import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/*
 * argon2id with OWASP's baseline (19 MiB memory, 2 iterations, 1 lane), the package defaults
 * spelled out so that a library upgrade cannot weaken them silently.
 */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * A hash with the same parameters, verified in place of a missing one so that unknown users cost
 * the same time as known ones (docs/security.md "Rate limits, enumeration, passwords, the outbox"). Made when the module loads, on libuv's thread pool,
 * so that not even the first unknown username after a start pays for making it.
 */
const dummyHash: Promise<string> = hashPassword('not-a-real-password');

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const PASSWORD_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password of `length` characters from the CSPRNG (docs/glossary.md "Fixed values": generated passwords are 10). */
export function generatePassword(length = 10): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_CHARS[randomInt(0, PASSWORD_CHARS.length)];
  return out;
}
