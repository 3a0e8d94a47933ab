import { shortReceipt } from '@pm/protocol/receipt';
import type { OutgoingMessage } from '../../lib/outbox';
import { renderTemplate, SMS_TEMPLATES } from '../sms/templates';

/*
 * The reply to an answer code that was taken (docs/sms.md "Answers by SMS"), in the language the
 * device was in, as one of the registered templates (modules/sms/templates.ts: Indian operators
 * drop a text that matches none). Only a code that was taken gets one; a forged, replayed,
 * truncated or wrong-number code gets none, so an attacker learns nothing from trying.
 */

export type SmsReply = { receipt: string; score?: { marks: number; outOf: number } } | { textsFollow: true };

/** The reply's template and its variables. */
function templateOf(reply: SmsReply): { kind: 'answers_received' | 'answers_scored' | 'answers_texts_follow'; vars: Record<string, string> } {
  if ('textsFollow' in reply) return { kind: 'answers_texts_follow', vars: {} };
  const receipt = shortReceipt(reply.receipt);
  if (!reply.score) return { kind: 'answers_received', vars: { receipt } };
  return { kind: 'answers_scored', vars: { receipt, score: `${reply.score.marks}/${reply.score.outOf}` } };
}

/** The reply as the outbox sends it (its text is the template filled in). */
export function smsReplyMessage(lang: 'en' | 'hi', to: string, reply: SmsReply): OutgoingMessage {
  const { kind, vars } = templateOf(reply);
  return { channel: 'sms', to, subject: SMS_TEMPLATES[kind].subject, body: renderTemplate(kind, lang, vars), template: { kind, lang, vars } };
}

