import { appendFileSync, chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, like, notLike, or } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { DB } from '../db/client';
import { first } from '../db/transaction';
import { outbox } from '../db/schema';
import type { Logger } from './logger';

/** Stands for the secret (a code, a password) in every text that is stored (docs/security.md "Rate limits, enumeration, passwords, the outbox"). */
export const SECRET_MASK = '••••••';

export type OutgoingMessage = {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  /**
   * The text as it is kept in the outbox table: a secret in it is written as SECRET_MASK, never
   * as itself, so that no code or password stays in the database after the message is sent.
   */
  body: string;
  /** The code or password that the adapter puts in place of SECRET_MASK in what it delivers. */
  secret?: string;
  /**
   * An SMS's template (docs/sms.md "DLT templates", modules/sms/templates.ts): its kind, language
   * and variables, the secret's written as SECRET_MASK. A provider that sends templates (MSG91)
   * needs it; `body` is then the template filled in.
   */
  template?: { kind: string; lang: 'en' | 'hi'; vars: Record<string, string> };
  /**
   * For an SMS whose person has an e-mail: sent again to that address when it is not reported
   * delivered in time (docs/sms.md "Delivery reports and the e-mail fallback").
   */
  emailFallback?: { personId: string };
};

/** Sends SMS and e-mail (ARCHITECTURE decision 9). Every message is kept, masked, in the outbox table. */
export interface Outbox {
  send(message: OutgoingMessage): Promise<{ delivered: boolean }>;
}

/** The text the recipient reads: the body with its secret. */
export function deliveredText(m: OutgoingMessage): string {
  return m.secret === undefined ? m.body : m.body.split(SECRET_MASK).join(m.secret);
}

/**
 * Work a route does after its answer has gone (one per app, `deps.afterAnswer`, built in
 * compose.ts): in a later turn of the event loop, once the handler's answer has been written. A
 * route whose work differs between a registered and an unknown account (a code issued, a message
 * sent) does that work here, so that neither the answer nor its time can depend on it
 * (docs/security.md, "Smaller points").
 */
export type AfterAnswer = {
  /**
   * Runs `task` after the answer; a failure is logged as `what`. Tasks given the same
   * `inOrderOf` key (a person's id) run one after another in the order they were handed over,
   * so a later request's code always voids an earlier one's.
   */
  run(what: string, task: () => Promise<unknown>, inOrderOf?: string): void;
  /**
   * Resolves once everything handed over so far is done (or has failed): what a test waits for
   * before it reads the local inbox. A send writes the outbox table first, which on PostgreSQL
   * takes more than one turn of the event loop.
   */
  settled(): Promise<void>;
};

/** An app's AfterAnswer, logging failures to `log`. */
export function createAfterAnswer(log: Logger): AfterAnswer {
  /** The last task per `inOrderOf` key, for the next one to wait on. */
  const queueTails = new Map<string, Promise<void>>();
  /** Work handed over and not yet done (or failed). */
  const unsent = new Set<Promise<void>>();

  /** `task` once `before` is over, in a later turn of the event loop; settles when it has. */
  function later(before: Promise<void> | undefined, what: string, task: () => Promise<unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        void (before ?? Promise.resolve())
          .then(task)
          .catch((err: unknown) => {
            log.error({ err }, `${what} failed`);
          })
          .finally(resolve);
      });
    });
  }

  function run(what: string, task: () => Promise<unknown>, inOrderOf?: string): void {
    const done = later(inOrderOf === undefined ? undefined : queueTails.get(inOrderOf), what, task);
    unsent.add(done);
    void done.then(() => unsent.delete(done));
    if (inOrderOf !== undefined) {
      queueTails.set(inOrderOf, done);
      void done.then(() => {
        if (queueTails.get(inOrderOf) === done) queueTails.delete(inOrderOf);
      });
    }
  }

  async function settled(): Promise<void> {
    do {
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...unsent]);
    } while (unsent.size > 0);
  }

  return { run, settled };
}

/**
 * The developer's "phone": a file in DATA_DIR that receives every message the local adapter
 * delivers, in full, one JSON line each ({ at, channel, to, subject, body }). Outside production
 * only; the dev and the e2e suite read it (docs/configuration.md "One-time codes without a network").
 */
export function localInboxFile(config: { dataDir: string; NODE_ENV?: string }): string | null {
  return config.NODE_ENV === 'production' ? null : path.join(config.dataDir, 'local-inbox.jsonl');
}

export type InboxMessage = { at: number; channel: 'email' | 'sms'; to: string; subject: string; body: string };

/** The local inbox's messages, oldest first (for the tests and a developer's scripts). */
export function readLocalInbox(file: string): InboxMessage[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as InboxMessage);
}

/*
 * Databases of older versions kept codes and generated passwords in plain text. Their known
 * texts are masked when an adapter starts; a generated password may still be the account's
 * password (until its owner changes it), so it must not stay there.
 */
async function maskStoredSecrets(db: DB) {
  const rows = await db
    .select({ id: outbox.id, body: outbox.body })
    .from(outbox)
    .where(
      and(
        notLike(outbox.body, `%${SECRET_MASK}%`),
        or(like(outbox.body, '%reset code is %'), like(outbox.body, '%login OTP%'), like(outbox.body, '%and the password %')),
      ),
    );
  for (const r of rows) {
    const body = r.body
      .replace(/(reset code is )\d{6}/g, `$1${SECRET_MASK}`)
      .replace(/^\d{6}( is your Pariksha Mitra login OTP)/, `${SECRET_MASK}$1`)
      .replace(/(and the password )\S+?(, then change it)/g, `$1${SECRET_MASK}$2`);
    if (body !== r.body) await db.update(outbox).set({ body }).where(eq(outbox.id, r.id));
  }
}

export type LocalOutboxOptions = {
  /** Where full messages go besides the log (localInboxFile); null in production. */
  inboxFile: string | null;
};

/**
 * The local default, used for all SMS and for e-mail without SMTP_URL. The message is kept
 * (masked) in the outbox table and delivered, in full, to the server log — where the developer
 * reads it, as before — and outside production to the local inbox file (mode 0600).
 *
 * In production there is no phone to deliver to: the full text then goes only to the log line,
 * at warn level with the reason, so that an operator can still hand a code to its owner; no file
 * and no table keeps the secret. SMS go through a provider's adapter instead where SMS_PROVIDER
 * names one (modules/sms/sms-outbox.ts, docs/sms.md).
 */
export async function createLocalOutbox(db: DB, log: Logger, opts: LocalOutboxOptions = { inboxFile: null }): Promise<Outbox> {
  await maskStoredSecrets(db);
  const { inboxFile } = opts;
  if (inboxFile && existsSync(inboxFile)) chmodSync(inboxFile, 0o600);
  return {
    async send(m) {
      await db.insert(outbox).values({ channel: m.channel, recipient: m.to, subject: m.subject, body: m.body, status: 'LOGGED' });
      const message = { channel: m.channel, to: m.to, subject: m.subject, body: deliveredText(m) };
      if (inboxFile) {
        appendFileSync(inboxFile, `${JSON.stringify({ at: Date.now(), ...message })}\n`, { mode: 0o600 });
        log.info({ outbox: message }, 'outbox message');
      } else {
        log.warn({ outbox: message }, 'outbox message: no e-mail or SMS provider is configured, so it is delivered to this log only');
      }
      return { delivered: true };
    },
  };
}

/**
 * E-mail through SMTP (nodemailer) when SMTP_URL is set; SMS stays with the local outbox (the SMS
 * adapter, where one is configured, sits in front of this one: modules/sms/sms-outbox.ts).
 */
export async function createSmtpOutbox(
  db: DB,
  log: Logger,
  smtpUrl: string,
  from: string,
  opts: LocalOutboxOptions = { inboxFile: null },
): Promise<Outbox> {
  const transport = nodemailer.createTransport(smtpUrl);
  const local = await createLocalOutbox(db, log, opts);
  return {
    async send(m) {
      if (m.channel !== 'email') return local.send(m);
      const row = (await first(
        db
          .insert(outbox)
          .values({ channel: m.channel, recipient: m.to, subject: m.subject, body: m.body, status: 'QUEUED' })
          .returning({ id: outbox.id }),
      ))!;
      try {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: deliveredText(m) });
        await db.update(outbox).set({ status: 'SENT', sentAt: Date.now() }).where(eq(outbox.id, row.id));
        log.info({ outbox: { channel: m.channel, to: m.to, subject: m.subject } }, 'e-mail sent');
        return { delivered: true };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        await db.update(outbox).set({ status: 'FAILED', error }).where(eq(outbox.id, row.id));
        log.warn({ outbox: { to: m.to, error } }, 'e-mail failed');
        return { delivered: false };
      }
    },
  };
}
