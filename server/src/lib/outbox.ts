import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { DB } from '../db/client';
import { outbox } from '../db/schema';
import type { Logger } from './logger';

export type OutgoingMessage = {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
};

/** Sends SMS and e-mail (ARCHITECTURE decision 9). Every message is kept in the outbox table. */
export interface Outbox {
  send(message: OutgoingMessage): Promise<{ delivered: boolean }>;
}

/**
 * The local default: the message is stored in the outbox table and printed to the log, where
 * the developer and the tests read it. No network is used.
 */
export function createLocalOutbox(db: DB, log: Logger): Outbox {
  return {
    async send(m) {
      db.insert(outbox)
        .values({ channel: m.channel, recipient: m.to, subject: m.subject, body: m.body, status: 'LOGGED' })
        .run();
      log.info({ outbox: { channel: m.channel, to: m.to, subject: m.subject, body: m.body } }, 'outbox message');
      return { delivered: true };
    },
  };
}

/**
 * E-mail through SMTP (nodemailer) when SMTP_URL is set; SMS stays with the local outbox because
 * no SMS provider is configured.
 */
export function createSmtpOutbox(db: DB, log: Logger, smtpUrl: string, from: string): Outbox {
  const transport = nodemailer.createTransport(smtpUrl);
  const local = createLocalOutbox(db, log);
  return {
    async send(m) {
      if (m.channel !== 'email') return local.send(m);
      const row = db
        .insert(outbox)
        .values({ channel: m.channel, recipient: m.to, subject: m.subject, body: m.body, status: 'QUEUED' })
        .returning({ id: outbox.id })
        .get();
      try {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.body });
        db.update(outbox).set({ status: 'SENT', sentAt: Date.now() }).where(eq(outbox.id, row.id)).run();
        log.info({ outbox: { channel: m.channel, to: m.to, subject: m.subject } }, 'e-mail sent');
        return { delivered: true };
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        db.update(outbox).set({ status: 'FAILED', error }).where(eq(outbox.id, row.id)).run();
        log.warn({ outbox: { to: m.to, error } }, 'e-mail failed');
        return { delivered: false };
      }
    },
  };
}
