import { shortReceipt } from '@pm/protocol/receipt';

/*
 * The reply to an answer code that was taken (docs/sms.md "Answers by SMS"), in the language the
 * device was in. Short: the English fits one GSM-7 part, the Hindi one Unicode part of 70
 * characters or two. Only a code that was taken gets one; a forged, replayed, truncated or
 * wrong-number code gets none, so an attacker learns nothing from trying.
 */

export type SmsReply = { receipt: string; score?: { marks: number; outOf: number } } | { textsFollow: true };

const TEXTS = {
  en: {
    stored: (receipt: string) => `Pariksha Mitra: answers received. Receipt ${receipt}.`,
    score: (marks: number, outOf: number) => ` Score ${marks}/${outOf}.`,
    textsFollow: 'Pariksha Mitra: choices received. Written answers will come when your phone has data.',
  },
  hi: {
    stored: (receipt: string) => `परीक्षा मित्र: उत्तर मिले। रसीद ${receipt}।`,
    score: (marks: number, outOf: number) => ` अंक ${marks}/${outOf}।`,
    textsFollow: 'परीक्षा मित्र: विकल्प मिले। लिखित उत्तर डेटा आने पर पहुँचेंगे।',
  },
} as const;

/** The text of a reply; the receipt as a person reads it (sync-protocol receipt.ts shortReceipt). */
export function smsReplyText(lang: 'en' | 'hi', reply: SmsReply): string {
  const t = TEXTS[lang];
  if ('textsFollow' in reply) return t.textsFollow;
  return t.stored(shortReceipt(reply.receipt)) + (reply.score ? t.score(reply.score.marks, reply.score.outOf) : '');
}
