import { hash, verify } from '@node-rs/argon2';

/*
 * argon2id with OWASP's baseline (19 MiB memory, 2 iterations, 1 lane), the package defaults
 * spelled out so that a library upgrade cannot weaken them silently.
 */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash computed once so that unknown users cost the same time as known ones. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
