import { packAnswerCode, type SmsAnswerKeyResponse, smsQuestions } from '@pm/protocol/sms-answer-code';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { api } from './api-client';
import { getSession } from './session';

/*
 * Answers by SMS on the device (docs/sms.md "Answers by SMS", "The key"). The session's SMS key is
 * fetched whenever the device is online at the start of a test and on the result screen, and kept
 * here with whose it is; a code is made offline from the attempt and the set's questions as
 * replication gave them, and sent by the phone's own SMS app through an `sms:` link.
 */

const KEY_STORAGE = 'smsAnswerKey';
type Kept = Pick<SmsAnswerKeyResponse, 'key' | 'number' | 'personId'>;

/** The key kept on this device, when it is the signed-in person's and there is a number to send to. */
export function keptSmsKey(): (Kept & { number: string }) | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY_STORAGE) ?? 'null') as Kept | null;
    if (!kept || typeof kept.key !== 'string' || typeof kept.number !== 'string') return null;
    return kept.personId === getSession()?.id ? { ...kept, number: kept.number } : null;
  } catch {
    return null;
  }
}

/** Fetches and keeps the session's key in the background (signed in and online; nothing happens otherwise). */
export function rememberSmsKey(): void {
  if (!getSession()) return;
  api<SmsAnswerKeyResponse>('/sms-answers/key', { background: true, silent: true })
    .then((r) => localStorage.setItem(KEY_STORAGE, JSON.stringify({ key: r.key, number: r.number, personId: r.personId } satisfies Kept)))
    .catch(() => undefined);
}

/** Signing out takes the key off the device (the server has ended it anyway). */
export function forgetSmsKey(): void {
  localStorage.removeItem(KEY_STORAGE);
}

const fromBase64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/**
 * The `sms:` link that opens the phone's SMS app with our number and the code; null when the
 * attempt cannot be packed exactly (docs/sms.md "The format") or no key is kept.
 */
export async function smsAnswerLink(attempt: Omit<TestSummaryDoc, '_deleted'>, detail: Pick<QsDetailDoc, 'questions'>, lang: 'en' | 'hi'): Promise<{ href: string; parts: number; textsFollow: boolean } | null> {
  const kept = keptSmsKey();
  if (!kept || attempt.status !== 'SUBMITTED') return null;
  const byId = new Map(detail.questions.map((q) => [q.id, q]));
  const questions = smsQuestions(
    detail.questions.map((q) => q.id),
    (id) => byId.get(id),
  );
  const packed = await packAnswerCode(attempt, questions, fromBase64url(kept.key), lang);
  if (!packed) return null;
  // `?body=` is what Android and iOS both read; the code's characters need no escaping but the space.
  return { href: `sms:${kept.number}?body=${encodeURIComponent(packed.text)}`, parts: packed.parts, textsFollow: packed.textsFollow };
}
