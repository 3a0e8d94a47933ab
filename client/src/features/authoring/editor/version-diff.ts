import diff from 'microdiff';
import type { QuestionVersionData } from '@pm/protocol/question';

/*
 * What changed between two versions of a question (docs/authoring.md: who changed what, when, as a
 * readable diff). microdiff finds the changed paths; each becomes one field of the view: the
 * question and each option as text, the correct answer, type, difficulty, tags, status and
 * reason, and the same for each translation.
 */

export type TextField = { kind: 'text'; lang: string; part: 'q' | 'expl' } | { kind: 'text'; lang: string; part: 'op'; key: string };
export type FieldChange =
  | (TextField & { before: string; after: string })
  | { kind: 'answer'; lang: string; before: string[]; after: string[] }
  | { kind: 'value'; field: 'qt' | 'd' | 's' | 'st' | 'reason'; before: string | null; after: string | null }
  | { kind: 'tags'; field: 'c' | 't' | 'e'; added: string[]; removed: string[] };

type Data = Partial<QuestionVersionData>;
const BASE = 'en';

function fieldIds(before: Data, after: Data): string[] {
  const ids = new Set<string>();
  const keysAt = (get: (d: Data) => Record<string, unknown> | undefined) => new Set([...Object.keys(get(before) ?? {}), ...Object.keys(get(after) ?? {})]);
  for (const change of diff(before, after)) {
    const [top, second, third, fourth] = change.path.map(String);
    if (top === 'ops') {
      for (const k of second === undefined ? keysAt((d) => d.ops) : [second]) ids.add(`op:${BASE}:${k}`);
    } else if (top === 'trans') {
      const langs = second === undefined ? keysAt((d) => d.trans) : [second];
      for (const l of langs) {
        const parts = third === undefined ? ['q', 'ops', 'ca', 'expl'] : [third];
        for (const p of parts) {
          if (p === 'ops') for (const k of fourth === undefined ? keysAt((d) => d.trans?.[l]?.ops) : [fourth]) ids.add(`op:${l}:${k}`);
          else if (p === 'q') ids.add(`q:${l}`);
          else if (p === 'ca') ids.add(`ca:${l}`);
          else if (p === 'expl') ids.add(`expl:${l}`);
        }
      }
    } else if (top === 'q') ids.add(`q:${BASE}`);
    else if (top === 'ca') ids.add(`ca:${BASE}`);
    else if (top === 'expl') ids.add(`expl:${BASE}`);
    else if (top) ids.add(top);
  }
  return [...ids];
}

const ORDER = ['qt', 'q', 'op', 'ca', 'expl', 'd', 's', 'c', 't', 'e', 'st', 'reason'];
const rank = (id: string) => {
  const [kind, lang] = id.split(':');
  // Base fields first, then each translation's.
  return (lang && lang !== BASE ? 100 : 0) + ORDER.indexOf(kind ?? id);
};

/**
 * The fields that changed from `before` (null: the first version, compared with nothing) to
 * `after`, in the order the editor shows them; a text field's texts are still HTML.
 */
export function versionChanges(before: Data | null, after: Data): FieldChange[] {
  const prev = before ?? {};
  const ids = fieldIds(prev, after).sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  const out: FieldChange[] = [];
  const tr = (d: Data, l: string) => d.trans?.[l];
  for (const id of ids) {
    const [kind, lang = BASE, key = ''] = id.split(':');
    if (kind === 'q') {
      const get = (d: Data) => (lang === BASE ? d.q : tr(d, lang)?.q) ?? '';
      out.push({ kind: 'text', part: 'q', lang, before: get(prev), after: get(after) });
    } else if (kind === 'expl') {
      const get = (d: Data) => (lang === BASE ? d.expl : tr(d, lang)?.expl) ?? '';
      out.push({ kind: 'text', part: 'expl', lang, before: get(prev), after: get(after) });
    } else if (kind === 'op') {
      const get = (d: Data) => (lang === BASE ? d.ops?.[key] : tr(d, lang)?.ops[key]) ?? '';
      out.push({ kind: 'text', part: 'op', key, lang, before: get(prev), after: get(after) });
    } else if (kind === 'ca') {
      const get = (d: Data) => (lang === BASE ? d.ca : tr(d, lang)?.ca) ?? [];
      out.push({ kind: 'answer', lang, before: get(prev), after: get(after) });
    } else if (kind === 'c' || kind === 't' || kind === 'e') {
      const b = prev[kind] ?? [];
      const a = after[kind] ?? [];
      out.push({ kind: 'tags', field: kind, added: a.filter((x) => !b.includes(x)), removed: b.filter((x) => !a.includes(x)) });
    } else if (kind === 'qt' || kind === 'd' || kind === 's' || kind === 'st' || kind === 'reason') {
      out.push({ kind: 'value', field: kind, before: prev[kind] ?? null, after: after[kind] ?? null });
    }
  }
  // A field that is empty on both sides (a first version's empty exam list, no reason) is no change.
  return out.filter((c) => {
    if (c.kind === 'tags') return c.added.length + c.removed.length > 0;
    if (c.kind === 'answer') return c.before.join('\u0000') !== c.after.join('\u0000');
    return c.before !== c.after;
  });
}

/**
 * Rich text as words for a diff: formulas as their LaTeX between $ signs, a picture as
 * `imageWord`, blocks separated by line breaks, markup dropped.
 */
export function htmlToText(html: string, imageWord: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const m of doc.querySelectorAll('[data-latex]')) m.replaceWith(doc.createTextNode(` $${m.getAttribute('data-latex') ?? ''}$ `));
  for (const img of doc.querySelectorAll('img')) img.replaceWith(doc.createTextNode(` ${imageWord} `));
  for (const br of doc.querySelectorAll('br')) br.replaceWith(doc.createTextNode('\n'));
  for (const block of doc.querySelectorAll('p, div, li, h1, h2, h3, h4, h5, h6, blockquote, pre')) block.append(doc.createTextNode('\n'));
  return (doc.body.textContent ?? '')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
