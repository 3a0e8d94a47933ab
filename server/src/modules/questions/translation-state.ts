import { eq, sql } from 'drizzle-orm';
import { englishSourceHash } from '@pm/protocol/translate';
import type { DB } from '../../db/client';
import { hasPrefix } from '../../db/dialect';
import { question, questionTag } from '../../db/schema';
import { row } from '../../db/transaction';

/*
 * Translations that stay true (docs/configuration.md "Machine translation"). Each translation remembers the fingerprint of the
 * English it was made from or last reviewed against (`src`), and whether it is a machine draft
 * (`mt`). Both are decided here, on every write of a question, from what was stored before:
 * a client cannot make a stale translation current except by saving it as reviewed.
 *
 * For the list's filters, question-index.ts writes per language a row `tr:<lang>` (a
 * translation exists), `trs:<lang>` (stale) and `trd:<lang>` (machine draft) into question_tag,
 * beside the tags and facets, in the same transaction.
 */

type Trans = { q: string; ops: Record<string, string>; ca: string[]; expl?: string | undefined; src?: string | undefined; mt?: boolean | undefined; reviewed?: true | undefined };
type English = { q: string; ops: Record<string, string>; ca: readonly string[]; qt: string; expl?: string | undefined };
type WithTrans<T> = English & { trans: Record<string, T> };

/** A translation as stored: content, `src`, `mt` when true; `reviewed` is never stored. */
type Stored = { q: string; ops: Record<string, string>; ca: string[]; expl?: string; src?: string; mt?: boolean };

function sameContent(a: Stored, b: Stored): boolean {
  return a.q === b.q && JSON.stringify(a.ops) === JSON.stringify(b.ops) && JSON.stringify(a.ca) === JSON.stringify(b.ca) && (a.expl ?? '') === (b.expl ?? '');
}

/**
 * The translations of a question about to be written over `before` (undefined: created):
 * - `reviewed` (an editor saved the translation having it on screen): current, not a draft;
 * - a machine draft for the English being written (`mt` and `src` of this English, content
 *   new; generateInDiffLang writes these): kept as such;
 * - otherwise an existing translation keeps its `src` and draft flag, whatever else changed (an
 *   option re-keyed in English is no review); one from before this was tracked takes the
 *   fingerprint of the English it stood beside;
 * - a new translation (an import, an API client) is current for the English it comes with.
 */
export function settleTranslations(before: WithTrans<Stored> | undefined, v: WithTrans<Trans>): Record<string, Stored> {
  const now = englishSourceHash(v);
  const then = before ? englishSourceHash(before) : undefined;
  const out: Record<string, Stored> = {};
  for (const [lang, tr] of Object.entries(v.trans)) {
    const content: Stored = { q: tr.q, ops: tr.ops, ca: tr.ca, ...(tr.expl && { expl: tr.expl }) };
    const prev = before?.trans[lang];
    if (tr.reviewed) {
      out[lang] = { ...content, src: now };
    } else if (tr.mt === true && tr.src === now && (!prev || !sameContent(prev, content))) {
      out[lang] = { ...content, src: now, mt: true };
    } else if (prev) {
      const src = prev.src ?? then;
      out[lang] = { ...content, ...(src !== undefined && { src }), ...(prev.mt === true && { mt: true }) };
    } else {
      out[lang] = { ...content, src: now };
    }
  }
  return out;
}

/**
 * The question_tag rows of a question's translations. A translation without `src` (from before
 * this was tracked, never written since) is taken as current.
 */
export function translationRows(q: WithTrans<Stored>): string[] {
  const langs = Object.keys(q.trans);
  if (langs.length === 0) return [];
  const now = englishSourceHash(q);
  const rows: string[] = [];
  for (const lang of langs) {
    const tr = q.trans[lang]!;
    rows.push(`tr:${lang}`);
    if (tr.src !== undefined && tr.src !== now) rows.push(`trs:${lang}`);
    if (tr.mt === true) rows.push(`trd:${lang}`);
  }
  return rows;
}

/**
 * Whether the index lacks its translation rows: questions with translations exist but no
 * `tr:` row does (a database from before translation rows existed). Then the caller re-indexes every question.
 */
export async function translationRowsMissing(db: DB): Promise<boolean> {
  const anyTranslated = await row<{ n: number }>(
    db,
    sql`select 1 as n from ${question} where ${eq(question.deleted, false)} and cast(${question.trans} as text) <> '{}' limit 1`,
  );
  if (!anyTranslated) return false;
  const anyRow = await row<{ n: number }>(db, sql`select 1 as n from ${questionTag} where ${hasPrefix(db, questionTag.tid, 'tr:')} limit 1`);
  return !anyRow;
}
