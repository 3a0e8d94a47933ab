import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppEnv } from '#server/context';
import { safeEqual } from '../payments/providers/common';
import type { FetchLike } from '../payments/providers/common';
import { e164, formParams, SMS_CALLBACK_PATHS, type SmsProvider } from './adapter';
import { templateKey } from './msg91';
import { sandboxSmsPage } from './sandbox-sms-page';
import { renderTemplate, SMS_KINDS, SMS_LANGS, SMS_TEMPLATES, type SmsKind, smsParts } from './templates';
import { twilioSignature } from './twilio';

/*
 * The local SMS provider (docs/sms.md "The sandbox"): the outside system, inside our server under
 * /sandbox/sms (outside /api), outside production (or in a trial one that allows it), speaking
 * both Twilio's and MSG91's protocols, so that development and the tests run the real adapters'
 * code with no network. Its state is in memory (another system, not our database).
 *
 * Its rules, deterministic:
 * - a message it accepts is "delivered" at once to the local inbox file (DATA_DIR/local-inbox.jsonl,
 *   which the developer and the e2e suite read), and a signed delivery report follows;
 * - a 10-digit mobile starting 55500 is a phone that is off: it gets nothing and no report comes
 *   (the e-mail fallback's case); one starting 55501 is refused by the operator: a `failed` report;
 * - POST /sandbox/sms/inbound { from, text } is a phone sending to our number: the provider's
 *   inbound callback, signed, is sent to our route, and the answer waits for ours;
 * - the page /sandbox/sms lists the messages per number and has a form to send one from a number.
 */

export const SMS_SANDBOX_PATH = '/sandbox/sms';
/** The origin of in-process requests to the sandbox; never resolved or dialled. */
const ORIGIN = 'http://sandbox.internal';
export const SMS_SANDBOX_BASE_URL = ORIGIN + SMS_SANDBOX_PATH;
/** Our number in the sandbox: where phones' inbound messages go. */
export const SANDBOX_INBOUND_NUMBER = '+919999900000';
/** Delays before each callback delivery attempt; a non-2xx answer moves on to the next. */
const DELIVERY_DELAYS_MS = [0, 100, 500];

export type SandboxMessage = {
  id: string;
  /** `out`: from us to a phone; `in`: from a phone to us. */
  direction: 'out' | 'in';
  /** The phone's number (E.164). */
  number: string;
  text: string;
  kind: SmsKind | null;
  parts: number;
  encoding: string;
  status: 'accepted' | 'delivered' | 'failed' | 'received' | 'refused by us';
  at: number;
};

export type SmsSandbox = {
  /** Which protocol our adapter talks to it in (SMS_SANDBOX_PROTOCOL). */
  protocol: SmsProvider;
  credentials: {
    twilio: { accountSid: string; authToken: string; from: string };
    msg91: { authKey: string; webhookToken: string; templateIds: Map<string, string> };
  };
  /** Our site's origin, where its callbacks go (PUBLIC_URL). */
  publicUrl: string;
  inboxFile: string | null;
  /** SMS_PART_PRICE_PAISE: what the page says each message would cost (parts × the rate). */
  partPricePaise: number;
  messages: SandboxMessage[];
  /** How long after it is accepted a message's delivery report is sent. */
  reportAfterMs: number;
  appFetch: ((req: Request) => Response | Promise<Response>) | null;
  /** Callbacks still running. */
  inflight: Set<Promise<unknown>>;
};

export function createSmsSandbox(opts: { protocol: SmsProvider; publicUrl: string; inboxFile: string | null; partPricePaise: number }): SmsSandbox {
  const templateIds = new Map<string, string>();
  for (const kind of SMS_KINDS) for (const lang of SMS_LANGS) templateIds.set(templateKey(kind, lang), `sbx${randomBytes(6).toString('hex')}`);
  return {
    protocol: opts.protocol,
    credentials: {
      twilio: { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex'), from: 'PMITRA' },
      msg91: { authKey: randomBytes(12).toString('hex'), webhookToken: randomBytes(16).toString('base64url'), templateIds },
    },
    publicUrl: opts.publicUrl,
    inboxFile: opts.inboxFile,
    partPricePaise: opts.partPricePaise,
    messages: [],
    reportAfterMs: 20,
    appFetch: null,
    inflight: new Set(),
  };
}

/** A fetch through the app in-process (the adapter's calls to the sandbox). */
export function smsSandboxFetch(sb: SmsSandbox): FetchLike {
  return async (input, init) => {
    if (!sb.appFetch) throw new Error('the SMS sandbox is not mounted on this app');
    return sb.appFetch(new Request(input, init));
  };
}

// --- The protocol's rules -------------------------------------------------------------------

/** What the operator does with a number: deliver, nothing (phone off), or refuse. */
function fateOf(number: string): 'deliver' | 'silent' | 'fail' {
  const national = number.replace(/^\+91/, '');
  if (national.startsWith('55500')) return 'silent';
  if (national.startsWith('55501')) return 'fail';
  return 'deliver';
}

/** The template a text matches, as DLT scrubbing matches it (null: no registered template). */
function matchTemplate(text: string): SmsKind | null {
  for (const kind of SMS_KINDS) {
    for (const lang of SMS_LANGS) {
      const t = SMS_TEMPLATES[kind];
      const pattern = t.text[lang]
        .split(/\{(\w+)\}/)
        .map((piece, i) => (i % 2 === 1 ? `[\\s\\S]{0,${t.vars[piece] ?? 30}}` : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      if (new RegExp(`^${pattern}$`).test(text)) return kind;
    }
  }
  return null;
}

const newId = (prefix: string, hexBytes = 16) => `${prefix}${randomBytes(hexBytes).toString('hex')}`;

function track(sb: SmsSandbox, run: Promise<unknown>) {
  sb.inflight.add(run);
  void run.finally(() => sb.inflight.delete(run));
}

const sleep = (ms: number) => new Promise<void>((resolve) => (ms <= 0 ? resolve() : setTimeout(resolve, ms).unref()));

/** Posts a callback to our app, again after a non-2xx answer, a few times; resolves to the last status. */
async function postCallback(sb: SmsSandbox, url: string, headers: Record<string, string>, body: string): Promise<number> {
  let status = 0;
  for (const delay of DELIVERY_DELAYS_MS) {
    await sleep(delay);
    try {
      const res = await sb.appFetch!(new Request(url, { method: 'POST', headers, body }));
      status = res.status;
      await res.text();
    } catch {
      status = 0;
    }
    if (status >= 200 && status < 300) break;
  }
  return status;
}

/** A Twilio callback (form, signed over the address and its parameters). */
function twilioCallback(sb: SmsSandbox, url: string, params: Record<string, string>) {
  const all = { AccountSid: sb.credentials.twilio.accountSid, ApiVersion: '2010-04-01', ...params };
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(sb.credentials.twilio.authToken, url, all) };
  return { url, headers, body: new URLSearchParams(all).toString() };
}

/** An MSG91 callback (JSON, the token in the address our panel would have been given). */
function msg91Callback(sb: SmsSandbox, path: string, payload: unknown) {
  return { url: `${sb.publicUrl}${path}?token=${encodeURIComponent(sb.credentials.msg91.webhookToken)}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) };
}

/** Takes a message from us: records it, delivers it to the inbox file by the number's fate, and reports later. */
function accept(sb: SmsSandbox, m: { id: string; to: string; text: string; kind: SmsKind | null; report: (state: 'delivered' | 'failed') => { url: string; headers: Record<string, string>; body: string } }) {
  const fate = fateOf(m.to);
  const { parts, encoding } = smsParts(m.text);
  const message: SandboxMessage = { id: m.id, direction: 'out', number: m.to, text: m.text, kind: m.kind, parts, encoding, status: 'accepted', at: Date.now() };
  sb.messages.push(message);
  if (fate === 'deliver' && sb.inboxFile) {
    const subject = m.kind ? SMS_TEMPLATES[m.kind].subject : 'SMS';
    appendFileSync(sb.inboxFile, `${JSON.stringify({ at: Date.now(), channel: 'sms', to: m.to, subject, body: m.text })}\n`, { mode: 0o600 });
  }
  if (fate === 'silent') return;
  const run = (async () => {
    await sleep(sb.reportAfterMs);
    message.status = fate === 'deliver' ? 'delivered' : 'failed';
    const cb = m.report(message.status);
    await postCallback(sb, cb.url, cb.headers, cb.body);
  })();
  track(sb, run);
}

/**
 * The provider's inbound callback for a message a phone sent to our number, signed as the provider
 * signs it: what `sendInbound` posts to our route (bench:sms sends these itself, all at once).
 */
export function inboundCallback(sb: SmsSandbox, from: string, text: string): { id: string; number: string; url: string; headers: Record<string, string>; body: string } {
  const number = e164(from);
  const twilio = sb.protocol === 'twilio';
  const id = twilio ? newId('SM') : newId('', 12);
  const cb = twilio
    ? twilioCallback(sb, sb.publicUrl + SMS_CALLBACK_PATHS.twilio.inbound, { MessageSid: id, SmsMessageSid: id, From: number, To: SANDBOX_INBOUND_NUMBER, Body: text, NumMedia: '0', NumSegments: String(smsParts(text).parts) })
    : msg91Callback(sb, SMS_CALLBACK_PATHS.msg91.inbound, { requestId: id, sender: number.replace(/^\+/, ''), inNumber: SANDBOX_INBOUND_NUMBER.replace(/^\+/, ''), content: text });
  return { id, number, ...cb };
}

/** A phone sends `text` to our number: the provider's inbound callback to our route; resolves once we answered. */
export async function sendInbound(sb: SmsSandbox, from: string, text: string): Promise<{ ok: boolean; providerMessageId: string; status: number }> {
  const { id, number, ...cb } = inboundCallback(sb, from, text);
  const { parts, encoding } = smsParts(text);
  const message: SandboxMessage = { id, direction: 'in', number, text, kind: null, parts, encoding, status: 'received', at: Date.now() };
  sb.messages.push(message);
  const run = postCallback(sb, cb.url, cb.headers, cb.body);
  track(sb, run);
  const status = await run;
  if (status < 200 || status >= 300) message.status = 'refused by us';
  return { ok: status >= 200 && status < 300, providerMessageId: id, status };
}

// --- The HTTP side --------------------------------------------------------------------------

const twilioSend = z.looseObject({ To: z.string().min(3), Body: z.string().min(1).max(1600), From: z.string().optional(), MessagingServiceSid: z.string().optional(), StatusCallback: z.string().optional() });
const msg91Send = z.looseObject({ template_id: z.string(), recipients: z.array(z.looseObject({ mobiles: z.string().regex(/^\d{10,15}$/) })).min(1) });
const inboundBody = z.strictObject({ from: z.string().regex(/^\+?\d{10,15}$/), text: z.string().min(1).max(1600) });

function twilioError(c: Context, status: 400 | 401 | 404, code: number, message: string) {
  return c.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, status);
}

function mountTwilio(r: Hono<AppEnv>, sb: SmsSandbox) {
  const creds = sb.credentials.twilio;
  r.post('/2010-04-01/Accounts/:sid/Messages.json', async (c) => {
    const expected = `Basic ${Buffer.from(`${creds.accountSid}:${creds.authToken}`).toString('base64')}`;
    if (c.req.param('sid') !== creds.accountSid || !safeEqual(c.req.header('authorization'), expected)) return twilioError(c, 401, 20003, 'Authenticate');
    const p = twilioSend.safeParse(formParams(await c.req.text()));
    if (!p.success) return twilioError(c, 400, 21602, 'Message body is required.');
    const id = newId('SM');
    const to = e164(p.data.To);
    const callback = p.data.StatusCallback;
    accept(sb, {
      id,
      to,
      text: p.data.Body,
      kind: matchTemplate(p.data.Body),
      report: (state) => twilioCallback(sb, callback ?? '', { MessageSid: id, SmsSid: id, MessageStatus: state === 'delivered' ? 'delivered' : 'undelivered', To: to, From: p.data.From ?? creds.from, ...(state === 'failed' && { ErrorCode: '30005' }) }),
    });
    return c.json({ sid: id, account_sid: creds.accountSid, to, from: p.data.From ?? null, body: p.data.Body, status: 'queued', num_segments: String(smsParts(p.data.Body).parts), api_version: '2010-04-01' }, 201);
  });
}

function mountMsg91(r: Hono<AppEnv>, sb: SmsSandbox) {
  const creds = sb.credentials.msg91;
  const kindOf = new Map([...creds.templateIds].map(([key, id]) => [id, key.split('.') as [SmsKind, 'en' | 'hi']]));
  r.post('/api/v5/flow', async (c) => {
    if (!safeEqual(c.req.header('authkey'), creds.authKey)) return c.json({ type: 'error', message: 'Authentication failure' }, 401);
    const p = msg91Send.safeParse(await c.req.json().catch(() => null));
    const template = p.success ? kindOf.get(p.data.template_id) : undefined;
    if (!p.success || !template) return c.json({ type: 'error', message: 'Template ID Missing or Invalid Template' }, 400);
    const requestId = newId('', 12);
    for (const recipient of p.data.recipients) {
      const vars = Object.fromEntries(Object.entries(recipient).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const to = e164(recipient.mobiles);
      accept(sb, {
        id: requestId,
        to,
        text: renderTemplate(template[0], template[1], vars),
        kind: template[0],
        report: (state) =>
          msg91Callback(sb, SMS_CALLBACK_PATHS.msg91.status, {
            data: [{ requestId, userId: 'sandbox', senderId: 'PMITRA', report: [{ number: recipient.mobiles, status: state === 'delivered' ? '1' : '2', desc: state === 'delivered' ? 'DELIVERED' : 'FAILED', date: new Date().toISOString() }] }],
          }),
      });
    }
    return c.json({ type: 'success', message: requestId });
  });
}

/** Mounts the sandbox on the app: both providers' send APIs, the inbound endpoint, its page and form. */
export function sandboxSmsRoutes(app: Hono<AppEnv>, sb: SmsSandbox, appFetch: (req: Request) => Response | Promise<Response>): void {
  sb.appFetch = appFetch;
  const r = new Hono<AppEnv>();
  r.use(bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ message: 'Body too large' }, 400) }));
  r.use((c, next) => {
    c.header('Cache-Control', 'no-store');
    return next();
  });
  mountTwilio(r, sb);
  mountMsg91(r, sb);
  // The test's and the answers' way in (docs/sms.md "The sandbox"): a phone sends a message to our number.
  r.post('/inbound', async (c) => {
    const p = inboundBody.safeParse(await c.req.json().catch(() => null));
    if (!p.success) return c.json({ ok: false, msg: 'from: a mobile number such as +919000000001, and text: 1 to 1600 characters' }, 400);
    const sent = await sendInbound(sb, p.data.from, p.data.text);
    return c.json({ ok: sent.ok, providerMessageId: sent.providerMessageId, ...(!sent.ok && { status: sent.status }) }, sent.ok ? 200 : 502);
  });
  // The developer page and its form (no script, so the site's CSP holds).
  r.get('/', (c) => c.html(sandboxSmsPage(sb.messages, c.req.query('number') ?? null, sb.protocol, sb.partPricePaise)));
  r.post('/send-inbound', async (c) => {
    const form = formParams(await c.req.text());
    const p = inboundBody.safeParse({ from: form.from ?? '', text: form.text ?? '' });
    if (p.success) await sendInbound(sb, p.data.from, p.data.text);
    return c.redirect(`${SMS_SANDBOX_PATH}?number=${encodeURIComponent(p.success ? e164(p.data.from) : '')}`, 303);
  });
  app.route(SMS_SANDBOX_PATH, r);
}

/** What tests do with the sandbox: look inside it, send from a phone, wait for its callbacks. */
export function smsSandboxControl(sb: SmsSandbox | null) {
  if (!sb) throw new Error('this app has no SMS sandbox (SMS_PROVIDER is not sandbox)');
  return {
    credentials: sb.credentials,
    messagesTo: (number: string) => sb.messages.filter((m) => m.direction === 'out' && m.number === e164(number)),
    sendInbound: (from: string, text: string) => sendInbound(sb, from, text),
    /** Resolves once every callback started so far is done. */
    async idle() {
      while (sb.inflight.size > 0) await Promise.allSettled([...sb.inflight]);
    },
    set reportAfterMs(ms: number) {
      sb.reportAfterMs = ms;
    },
  };
}
