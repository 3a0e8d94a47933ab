import type { InboundSms } from '../../lib/sms-inbound';
import type { SmsKind, SmsLang } from './templates';

/*
 * The SMS adapter (ARCHITECTURE decision 9; docs/sms.md "Providers and configuration"): one per
 * provider, chosen by SMS_PROVIDER. It sends a message in the provider's own request shape, and
 * reads the provider's callbacks (delivery reports, inbound messages) after checking that they
 * come from the provider: a callback that fails the check is null, and changes nothing.
 */

export type SmsProvider = 'msg91' | 'twilio';

/** One message to send: the text as delivered (secret filled in), and its template when it has one. */
export type SmsRequest = {
  /** E.164 (`+919000000001`). */
  to: string;
  text: string;
  /** The template and the variables it was filled with (MSG91 sends these, not the text). */
  template?: { kind: SmsKind; lang: SmsLang; vars: Record<string, string> };
};

export type DeliveryState = 'queued' | 'sent' | 'delivered' | 'failed';

/** What a delivery report says of one message. */
export type DeliveryReport = { providerMessageId: string; state: DeliveryState; error?: string };

/** A callback as it reached us: the address the provider called (PUBLIC_URL + path + query), its headers and raw body. */
export type ProviderCallback = { url: string; headers: Headers; body: string };

export interface SmsAdapter {
  readonly provider: SmsProvider;
  /** Sends; resolves to the provider's id of the message, throws when the provider refused or could not be reached. */
  send(m: SmsRequest): Promise<{ providerMessageId: string }>;
  /** The reports of a delivery-report callback, or null when it is not the provider's (bad signature or credential). */
  deliveryReports(cb: ProviderCallback): DeliveryReport[] | null;
  /** The message of an inbound callback, or null when it is not the provider's or not a message. */
  inbound(cb: ProviderCallback): InboundSms | null;
}

/** Our callback routes under /api (access.ts): the provider is told these addresses. */
export const SMS_CALLBACK_PATHS = {
  twilio: { status: '/api/sms/twilio/status', inbound: '/api/sms/twilio/inbound' },
  msg91: { status: '/api/sms/msg91/report', inbound: '/api/sms/msg91/inbound' },
} as const;

/** A number as E.164 with India's code when it has none (`919000000001` and `9000000001` → `+919000000001`). */
export function e164(number: string): string {
  const digits = number.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.length === 10) return `+91${digits}`;
  return `+${digits}`;
}

/** The parameters of a form body (`application/x-www-form-urlencoded`), the last of a repeated name. */
export function formParams(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}
