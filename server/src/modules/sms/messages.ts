import { type OutgoingMessage, SECRET_MASK } from '../../lib/outbox';
import { renderTemplate, SMS_TEMPLATES, type SmsKind, type SmsLang } from './templates';

/**
 * The language of a person's code messages (docs/sms.md "DLT templates"): the language the app was
 * in when they asked for the code (its language cookie, which the route reads), else English. The
 * server keeps no language per person; this is the one place that decides.
 */
export function smsLanguageOf(_person: { id: string }, asked?: SmsLang): SmsLang {
  return asked ?? 'en';
}

/**
 * An SMS of a template kind for the outbox: the stored body is the template filled in with the
 * secret masked, and the template travels with it for a provider that sends templates (MSG91).
 */
export function smsMessage(
  kind: SmsKind,
  to: string,
  vars: Record<string, string>,
  opts: { lang: SmsLang; secret?: string; emailFallback?: { personId: string } },
): OutgoingMessage {
  const t = SMS_TEMPLATES[kind];
  const all = t.secret ? { ...vars, [t.secret]: SECRET_MASK } : vars;
  return {
    channel: 'sms',
    to,
    subject: t.subject,
    body: renderTemplate(kind, opts.lang, all),
    ...(opts.secret !== undefined && { secret: opts.secret }),
    template: { kind, lang: opts.lang, vars: all },
    ...(opts.emailFallback && { emailFallback: opts.emailFallback }),
  };
}

/** How a screen names a mobile to its own signed-in owner: its last two digits only (`…01`). */
export function mobileEnding(mobile: string): string {
  return `…${mobile.slice(-2)}`;
}
