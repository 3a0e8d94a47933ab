import type { TFunction } from 'i18next';
import { MSG } from '@pm/protocol/messages';
import { DUPLICATE_SECTION_MSG, INVALID_SECTION_MSG, MAIN_SECTION_MSG } from '@pm/protocol/question-set';
import { translateServerMessage } from '@/lib/server-messages';

type T = TFunction<['authoring-bank', 'messages']>;

/** The spec's fixed texts of the set rules, English as the schema says them → their keys. */
const FIXED = {
  'Question set cannot be saved without label': 'rules.noLabel',
  'Question set cannot be saved without any section': 'rules.noSection',
  'Negative marking should be a positive number': 'rules.negative',
  [DUPLICATE_SECTION_MSG]: 'rules.duplicateSection',
  [INVALID_SECTION_MSG]: 'rules.invalidSection',
  [MAIN_SECTION_MSG]: 'rules.mainSection',
} as const;

/** Field names of the set by their path in the body, for a message the rules above do not cover. */
const FIELDS = { l: 'form.label', mpq: 'form.mpq', tm: 'form.tm', nm: 'form.nm', dur: 'form.dur', inst: 'form.inst', pts: 'form.pts' } as const;

/**
 * A rule's message in the interface's language. The schema (sync-protocol/src/question-set.ts)
 * speaks English; the spec's texts are looked up, and the ones built on numbers and names (the
 * selection limit, a section left without sub-sections, a question twice) are rebuilt in the
 * language from the same numbers and names.
 */
export function setRuleText(t: T, message: string, path: readonly PropertyKey[] = []): string {
  const fixed = (FIXED as Record<string, (typeof FIXED)[keyof typeof FIXED]>)[message];
  if (fixed) return t(fixed);
  let m = /^Only (\d+) questions are allowed in (.+) section$/.exec(message);
  // A section cannot be called Main (the rule above), so "Main" here is the main part.
  if (m) return t('selection.limit', { n: Number(m[1]), part: m[2] === 'Main' ? t('selection.main') : m[2] });
  m = /^Total marks of (.+) section should be ([\d.]+) \(questions × marks per question: (\d+) × ([\d.]+)\), or 0 to have them counted$/.exec(message);
  if (m) return t('rules.totalMarks', { part: m[1] === 'Main' ? t('selection.main') : m[1], total: m[2], n: Number(m[3]), mpq: m[4] });
  m = /^Section (.+) with sub-sections must keep its questions in them$/.exec(message);
  if (m) return t('rules.subSectionsNeeded', { name: m[1] });
  m = /^Question (.+) is in this question set more than once$/.exec(message);
  if (m) return t('rules.questionTwice', { id: m[1] });
  const field = typeof path[0] === 'string' ? (FIELDS as Record<string, (typeof FIELDS)[keyof typeof FIELDS]>)[path[0]] : undefined;
  return field ? t('rules.invalidField', { field: t(field) }) : t('rules.invalid');
}

/**
 * A server message in the interface's language. lib/server-messages translates the known texts
 * and those after a name; the set's refusals put the names after the text ("Only approved
 * questions can go into a published set: Q1, Q2"), which is translated here.
 */
export function serverText(t: T, msg: string): string {
  const known = translateServerMessage(msg);
  if (known !== msg) return known;
  // The set rules the server checks again (a save from another client, an offline push).
  const rule = setRuleText(t, msg);
  if (rule !== t('rules.invalid')) return rule;
  for (const [key, text] of Object.entries(MSG)) {
    if (text.endsWith(':') && msg.startsWith(`${text} `)) {
      return `${t(`messages:${key}` as never, { defaultValue: text }) as string} ${msg.slice(text.length + 1)}`;
    }
  }
  return msg;
}

/** Whether a refused save is "learners have taken this set" (asks for a new version). */
export function isNewVersionRefusal(status: number, msg: string): boolean {
  return status === 409 && (msg === MSG.setTakenNewVersion || msg === translateServerMessage(MSG.setTakenNewVersion));
}
