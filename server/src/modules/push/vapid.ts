import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../env';

/** The server's VAPID identity (RFC 8292): its key pair (base64url) and a contact for push services. */
export type Vapid = { publicKey: string; privateKey: string; subject: string };

export const VAPID_FILE = 'vapid-keys.json';

/** `mailto:` + the address of MAIL_FROM (`Pariksha Mitra <no-reply@example.org>` → `mailto:no-reply@example.org`). */
export function defaultSubject(mailFrom: string): string {
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? (/^\S+@\S+$/.test(mailFrom.trim()) ? mailFrom.trim() : 'no-reply@localhost');
  return `mailto:${address}`;
}

/**
 * The VAPID keys: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set (env.ts checks their form and
 * that they come together); otherwise a pair generated on first start and kept in
 * DATA_DIR/vapid-keys.json (mode 600, written once with `wx`, as the JWT secret is), so that the
 * devices' subscriptions, which are bound to the public key, survive restarts.
 */
export function loadVapid(config: Pick<Config, 'dataDir' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'MAIL_FROM'>): Vapid {
  const subject = config.VAPID_SUBJECT ?? defaultSubject(config.MAIL_FROM);
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  const file = path.join(config.dataDir, VAPID_FILE);
  if (!existsSync(file)) {
    const keys = webpush.generateVAPIDKeys();
    try {
      writeFileSync(file, `${JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process started on the same DATA_DIR wrote it first: theirs is the pair.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof stored.publicKey !== 'string' || typeof stored.privateKey !== 'string') throw new Error(`${file} does not hold a VAPID key pair`);
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
}
