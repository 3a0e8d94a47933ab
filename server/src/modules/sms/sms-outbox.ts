import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, lt, ne } from 'drizzle-orm';
import type { DB } from '../../db/client';
import { outbox, person } from '../../db/schema';
import { first } from '../../db/transaction';
import type { Config } from '../../env';
import { CODE_TTL_MS } from '../../lib/codes';
import type { Logger } from '../../lib/logger';
import { deliveredText, type Outbox, type OutgoingMessage, SECRET_MASK } from '../../lib/outbox';
import type { DeliveryReport, SmsAdapter, SmsRequest } from './adapter';
import { SMS_KINDS, type SmsKind } from './templates';

/*
 * The SMS channel of the outbox (docs/sms.md "Delivery reports and the e-mail fallback"): an SMS
 * goes through the provider's adapter and its row keeps the provider's id and delivery state,
 * which the provider's signed delivery reports move on. A message for a person who has an e-mail
 * keeps its secret, encrypted, until it is reported delivered; if it is reported failed, or not
 * delivered within SMS_FALLBACK_AFTER_S, it goes again by e-mail, once (a conditional update
 * claims the row), and the secret is wiped. E-mail, and SMS where no provider is configured, go
 * to the outbox underneath (SMTP or the local one) as before.
 */

type SmsOutboxDeps = { db: DB; log: Logger; config: Pick<Config, 'jwtSecret' | 'SMS_FALLBACK_AFTER_S'> };

/** The key that seals a pending secret: derived from the JWT secret, for this use only. */
function sealKey(jwtSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'pariksha-mitra outbox', 'sms fallback secret', 32));
}

/** AES-256-GCM: base64url(iv ‖ tag ‖ ciphertext). */
export function sealSecret(jwtSecret: Uint8Array, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(jwtSecret), iv);
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
}

export function openSecret(jwtSecret: Uint8Array, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(jwtSecret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const isSmsKind = (kind: string): kind is SmsKind => (SMS_KINDS as readonly string[]).includes(kind);

/** The adapter's request: the delivered text, and the template with the secret in its variable. */
function requestOf(m: OutgoingMessage): SmsRequest {
  const t = m.template;
  const fill = (v: string) => (m.secret === undefined ? v : v.split(SECRET_MASK).join(m.secret));
  const template = t && isSmsKind(t.kind) ? { kind: t.kind, lang: t.lang, vars: Object.fromEntries(Object.entries(t.vars).map(([k, v]) => [k, fill(v)])) } : undefined;
  return { to: m.to, text: deliveredText(m), ...(template && { template }) };
}

/** The outbox with SMS through `adapter`; `inner` takes e-mail (and the fallbacks). */
export function createSmsOutbox(deps: SmsOutboxDeps, inner: Outbox, adapter: SmsAdapter): Outbox & { fallBack(id: string): Promise<boolean> } {
  const { db, log, config } = deps;

  /**
   * Sends a row's message by e-mail, once: the conditional update claims it, whoever else tries
   * (the job on another instance, a failed report at the same moment). False when it was not
   * this call's to send, or there was nothing to send it with.
   */
  async function fallBack(id: string): Promise<boolean> {
    const row = await first(db.select().from(outbox).where(eq(outbox.id, id)));
    if (!row?.pendingSecret || !row.personId) return false;
    // The claim: RETURNING gives the row as written (its secret wiped), hence the read before it.
    const claimed = await first(
      db
        .update(outbox)
        .set({ fallbackAt: Date.now(), pendingSecret: null })
        .where(and(eq(outbox.id, id), isNull(outbox.fallbackAt), isNotNull(outbox.pendingSecret), ne(outbox.deliveryState, 'delivered')))
        .returning({ id: outbox.id }),
    );
    if (!claimed) return false;
    const secret = openSecret(config.jwtSecret, row.pendingSecret);
    const who = await first(db.select({ email: person.email }).from(person).where(eq(person.id, row.personId)));
    if (!secret || !who?.email || Date.now() - row.createdAt >= CODE_TTL_MS) return false;
    const ending = row.recipient.slice(-2);
    const note =
      row.lang === 'hi'
        ? `यह ईमेल से आया है क्योंकि ${ending} पर समाप्त होने वाले आपके मोबाइल पर SMS नहीं पहुँचा।`
        : `This came by e-mail because the text message to your mobile ending ${ending} was not delivered.`;
    await inner.send({ channel: 'email', to: who.email, subject: row.subject, body: `${row.body}\n\n${note}`, secret });
    log.info({ outbox: { id: row.id, provider: row.provider } }, 'SMS not delivered: sent again by e-mail');
    return true;
  }

  async function send(m: OutgoingMessage): Promise<{ delivered: boolean }> {
    if (m.channel !== 'sms') return inner.send(m);
    const sealed = m.emailFallback && m.secret !== undefined ? sealSecret(config.jwtSecret, m.secret) : null;
    const row = (await first(
      db
        .insert(outbox)
        .values({
          channel: 'sms',
          recipient: m.to,
          subject: m.subject,
          body: m.body,
          status: 'QUEUED',
          provider: adapter.provider,
          deliveryState: 'queued',
          personId: m.emailFallback?.personId ?? null,
          kind: m.template?.kind ?? null,
          lang: m.template?.lang ?? null,
          pendingSecret: sealed,
        })
        .returning({ id: outbox.id }),
    ))!;
    try {
      const { providerMessageId } = await adapter.send(requestOf(m));
      await db.update(outbox).set({ status: 'SENT', sentAt: Date.now(), providerMessageId }).where(eq(outbox.id, row.id));
      // A report that came before this update (a fast provider) found no row and is sent again.
      await db.update(outbox).set({ deliveryState: 'sent' }).where(and(eq(outbox.id, row.id), eq(outbox.deliveryState, 'queued')));
      log.info({ outbox: { channel: 'sms', to: m.to, subject: m.subject, provider: adapter.provider, providerMessageId } }, 'SMS sent');
      return { delivered: true };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await db.update(outbox).set({ status: 'FAILED', deliveryState: 'failed', error }).where(eq(outbox.id, row.id));
      log.warn({ outbox: { to: m.to, provider: adapter.provider, error } }, 'SMS failed');
      return { delivered: await fallBack(row.id) };
    }
  }

  return { send, fallBack };
}

export type SmsOutbox = ReturnType<typeof createSmsOutbox>;

/**
 * Applies a provider's delivery reports to the rows they name (docs/sms.md "Delivery reports and
 * the e-mail fallback"): delivered is final and wipes the pending secret; failed (unless already
 * delivered) sends the e-mail fallback at once. Resolves to how many reports matched a row.
 */
export async function applyDeliveryReports(db: DB, sms: SmsOutbox, provider: string, reports: readonly DeliveryReport[]): Promise<number> {
  let matched = 0;
  for (const r of reports) {
    const row = await first(db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.provider, provider), eq(outbox.providerMessageId, r.providerMessageId))));
    if (!row) continue;
    matched++;
    if (r.state === 'delivered') {
      await db.update(outbox).set({ deliveryState: 'delivered', status: 'DELIVERED', deliveredAt: Date.now(), pendingSecret: null }).where(eq(outbox.id, row.id));
    } else if (r.state === 'failed') {
      await db
        .update(outbox)
        .set({ deliveryState: 'failed', status: 'FAILED', error: r.error ?? 'undelivered' })
        .where(and(eq(outbox.id, row.id), ne(outbox.deliveryState, 'delivered')));
      await sms.fallBack(row.id);
    } else if (r.state === 'sent') {
      await db.update(outbox).set({ deliveryState: 'sent' }).where(and(eq(outbox.id, row.id), eq(outbox.deliveryState, 'queued')));
    }
  }
  return matched;
}

/**
 * One run of the fallback job: messages not delivered within SMS_FALLBACK_AFTER_S go by e-mail;
 * secrets of codes that have expired are wiped. Resolves to how many e-mails it sent.
 */
export async function runSmsFallback(deps: SmsOutboxDeps, sms: SmsOutbox, now = Date.now()): Promise<number> {
  const { db, config } = deps;
  await db
    .update(outbox)
    .set({ pendingSecret: null })
    .where(and(isNotNull(outbox.pendingSecret), lt(outbox.createdAt, now - CODE_TTL_MS)));
  const due = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        isNotNull(outbox.pendingSecret),
        isNull(outbox.fallbackAt),
        inArray(outbox.deliveryState, ['queued', 'sent', 'failed']),
        lt(outbox.createdAt, now - config.SMS_FALLBACK_AFTER_S * 1000),
      ),
    )
    .limit(500);
  let sent = 0;
  for (const { id } of due) if (await sms.fallBack(id)) sent++;
  return sent;
}

/** The job (compose.ts startJobs): a run every quarter of the fallback time, at most every 30 s. Returns its stop. */
export function startSmsFallback(deps: SmsOutboxDeps, sms: SmsOutbox): () => void {
  const every = Math.min(30_000, (deps.config.SMS_FALLBACK_AFTER_S * 1000) / 4);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runSmsFallback(deps, sms)
      .catch((err: unknown) => deps.log.error({ err }, 'SMS e-mail fallback failed'))
      .finally(() => {
        running = false;
      });
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
