import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { callProvider, type FetchLike, safeEqual } from '../payments/providers/common';
import type { DeliveryReport, DeliveryState, ProviderCallback, SmsAdapter, SmsRequest } from './adapter';
import { e164, formParams, SMS_CALLBACK_PATHS } from './adapter';

/*
 * Twilio Programmable Messaging (docs/sms.md "Providers and configuration"), after
 * twilio.com/docs/messaging/api/message-resource and twilio.com/docs/usage/security:
 *
 * - POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded To, From (a number or
 *   an alphanumeric sender id) or MessagingServiceSid (MG…), Body, StatusCallback; HTTP basic auth
 *   AccountSid:AuthToken. 201 answers the Message resource: { sid: 'SM…', status: 'queued', … }.
 * - Status callbacks POST form MessageSid, MessageStatus (queued, sending, sent, delivered,
 *   undelivered, failed), ErrorCode, To, From, AccountSid to the StatusCallback address.
 * - Inbound messages POST form MessageSid, From, To, Body, AccountSid to the number's webhook.
 * - Every callback carries X-Twilio-Signature: base64 HMAC-SHA1, keyed with the Auth Token, of
 *   the full address Twilio called followed by each POST parameter's name and value, sorted by name.
 */

export const TWILIO_BASE_URL = 'https://api.twilio.com';

export type TwilioOptions = {
  baseUrl?: string;
  accountSid: string;
  authToken: string;
  /** A number (+1…), an alphanumeric sender id, or a Messaging Service SID (MG…). */
  from: string;
  /** Our origin (PUBLIC_URL): the status callback address starts with it. */
  publicUrl: string;
  fetch?: FetchLike;
};

/** Twilio's signature of a callback: base64 HMAC-SHA1 of the URL and the sorted parameters. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Twilio's message status in our words. */
export function twilioState(status: string): DeliveryState {
  if (status === 'delivered' || status === 'read') return 'delivered';
  if (status === 'undelivered' || status === 'failed' || status === 'canceled') return 'failed';
  if (status === 'accepted' || status === 'queued' || status === 'scheduled') return 'queued';
  return 'sent';
}

const messageResource = z.looseObject({ sid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/), status: z.string() });
const errorBody = z.looseObject({ code: z.number().optional(), message: z.string().optional() });

export function createTwilioAdapter(opts: TwilioOptions): SmsAdapter {
  const base = opts.baseUrl ?? TWILIO_BASE_URL;
  const fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
  const auth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;

  /** The callback's parameters when its signature is Twilio's (and its account ours), else null. */
  function verified(cb: ProviderCallback): Record<string, string> | null {
    const params = formParams(cb.body);
    if (!safeEqual(cb.headers.get('x-twilio-signature'), twilioSignature(opts.authToken, cb.url, params))) return null;
    if (params.AccountSid !== undefined && params.AccountSid !== opts.accountSid) return null;
    return params;
  }

  return {
    provider: 'twilio',
    async send(m: SmsRequest) {
      const form = new URLSearchParams({ To: m.to, Body: m.text, StatusCallback: opts.publicUrl + SMS_CALLBACK_PATHS.twilio.status });
      form.set(opts.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', opts.from);
      const answer = await callProvider(fetchImpl, `${base}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      const ok = messageResource.safeParse(answer.json);
      if (answer.status >= 200 && answer.status < 300 && ok.success) return { providerMessageId: ok.data.sid };
      const err = errorBody.safeParse(answer.json);
      throw new Error(`Twilio refused the message (${answer.status}${err.success && err.data.code ? `, ${err.data.code}` : ''}): ${err.success ? (err.data.message ?? '') : ''}`);
    },
    deliveryReports(cb): DeliveryReport[] | null {
      const p = verified(cb);
      if (!p?.MessageSid || !p.MessageStatus) return null;
      const state = twilioState(p.MessageStatus);
      return [{ providerMessageId: p.MessageSid, state, ...(state === 'failed' && { error: `${p.MessageStatus}${p.ErrorCode ? ` ${p.ErrorCode}` : ''}` }) }];
    },
    inbound(cb) {
      const p = verified(cb);
      if (!p?.MessageSid || !p.From || p.Body === undefined) return null;
      return { from: e164(p.From), to: e164(p.To ?? ''), text: p.Body, provider: 'twilio', providerMessageId: p.MessageSid, receivedAt: new Date() };
    },
  };
}
