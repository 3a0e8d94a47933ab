import { Parser } from 'htmlparser2';

/*
 * What a translator may touch ("formulas and images are swapped for placeholders before
 * sending"; docs/configuration.md "Machine translation"). A question's rich text becomes plain words with `[[n]]` tokens where
 * markup stood: each run of tags between words is one token, and a formula (with the KaTeX HTML
 * the server rendered into it) or an image is one token whole. The translator sees only words
 * and tokens; the reply is checked token by token, and a reply that lost, repeated, or changed a
 * token (`[[3]]` become `[3]` or `[[ 3 ]]`, an invented `[[9]]`) is refused: what the tokens
 * stand for is never guessed back into place.
 *
 * Text that itself reads like a token (`[[2]]` typed in a question) becomes a token too, so that
 * it comes back as it was and cannot be confused with ours. Words go out with their entities
 * decoded (`a < b`, not `a &lt; b`) and come back escaped, so a translator that writes markup
 * of its own only ever adds visible text, never tags.
 */

/** A field ready for the translator: `text` with `[[1]]`…`[[n]]`, `slots[i]` the HTML of token i+1. */
export type Protected = { text: string; slots: string[]; hasWords: boolean };

const TOKEN = /\[\[(\d+)\]\]/g;
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Elements kept whole: a formula (its LaTeX and rendered HTML) and an image. */
function isAtomic(name: string, attribs: Record<string, string>): boolean {
  return name === 'img' || attribs['data-latex'] !== undefined || /math/.test(attribs['data-type'] ?? '');
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Part = { slot: string } | { text: string };

/** Splits rich text into markup (slots) and words, formulas and images whole. */
function parts(html: string): Part[] {
  const out: Part[] = [];
  let atomicDepth = 0;
  let atomicStart = 0;
  let atomicOpenEnd = 0;
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        const raw = html.slice(parser.startIndex, parser.endIndex + 1);
        if (atomicDepth > 0) {
          atomicDepth++;
          return;
        }
        if (isAtomic(name, attribs)) {
          atomicStart = parser.startIndex;
          atomicOpenEnd = parser.endIndex + 1;
          atomicDepth = 1;
          return;
        }
        out.push({ slot: raw });
      },
      onclosetag(name, implied) {
        if (atomicDepth > 0) {
          atomicDepth--;
          if (atomicDepth === 0) out.push({ slot: html.slice(atomicStart, implied ? atomicOpenEnd : parser.endIndex + 1) });
          return;
        }
        // A void element's close is implied; its tag is already a slot.
        if (implied || VOID.has(name)) return;
        out.push({ slot: html.slice(parser.startIndex, parser.endIndex + 1) });
      },
      ontext(text) {
        if (atomicDepth === 0) out.push({ text });
      },
      oncomment() {
        if (atomicDepth === 0) out.push({ slot: html.slice(parser.startIndex, parser.endIndex + 1) });
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/** Swaps markup, formulas and images of `html` for `[[n]]` tokens. */
export function protect(html: string): Protected {
  // Runs of markup (and the blanks between them) become one slot; words stay words.
  const merged: Part[] = [];
  const pushSlot = (raw: string) => {
    const last = merged.at(-1);
    if (last && 'slot' in last) last.slot += raw;
    else merged.push({ slot: raw });
  };
  const pushText = (text: string) => {
    const last = merged.at(-1);
    if (last && 'text' in last) last.text += text;
    else merged.push({ text });
  };
  for (const p of parts(html)) {
    if ('slot' in p) {
      pushSlot(p.slot);
      continue;
    }
    // Text that reads like a token is kept as a token of its own.
    let at = 0;
    for (const m of p.text.matchAll(TOKEN)) {
      if (m.index > at) pushText(p.text.slice(at, m.index));
      pushSlot(escapeText(m[0]));
      at = m.index + m[0].length;
    }
    if (at < p.text.length) pushText(p.text.slice(at));
  }
  // Blank text between slots (or at an end next to one) goes with the markup.
  const final: Part[] = [];
  for (let i = 0; i < merged.length; i++) {
    const p = merged[i]!;
    if ('text' in p && p.text.trim() === '' && merged.length > 1) {
      const prev = final.at(-1);
      const raw = escapeText(p.text);
      if (prev && 'slot' in prev) prev.slot += raw;
      else {
        const next = merged[i + 1];
        if (next && 'slot' in next) next.slot = raw + next.slot;
        else final.push(p);
      }
      continue;
    }
    final.push(p);
  }
  const slots: string[] = [];
  let text = '';
  let hasWords = false;
  for (const p of final) {
    if ('slot' in p) {
      slots.push(p.slot);
      text += `[[${slots.length}]]`;
    } else {
      text += p.text;
      if (p.text.trim() !== '') hasWords = true;
    }
  }
  return { text, slots, hasWords };
}

/** What was wrong with a reply's tokens. */
export type PlaceholderProblem = { lost: number[]; duplicated: number[]; unknown: number[] };

/**
 * The translated rich text: the reply's words escaped, each token replaced by what it stood for.
 * Every token must come back exactly once and no other may appear, else the problem is answered.
 * `inOrder`: the tokens came back in their order, so the markup is the original's, only the
 * words between changed (a translation may move a bold word, and then the tags may no longer nest).
 */
export function restore(p: Protected, reply: string): { html: string; inOrder: boolean } | { problem: PlaceholderProblem } {
  const seen = new Array<number>(p.slots.length).fill(0);
  const unknown: number[] = [];
  let inOrder = true;
  let last = 0;
  let html = '';
  let at = 0;
  for (const m of reply.matchAll(TOKEN)) {
    html += escapeText(reply.slice(at, m.index));
    at = m.index + m[0].length;
    const n = Number(m[1]);
    if (n >= 1 && n <= p.slots.length) {
      seen[n - 1]!++;
      if (n !== last + 1) inOrder = false;
      last = n;
      html += p.slots[n - 1];
    } else {
      unknown.push(n);
    }
  }
  html += escapeText(reply.slice(at));
  const lost = seen.flatMap((c, i) => (c === 0 ? [i + 1] : []));
  const duplicated = seen.flatMap((c, i) => (c > 1 ? [i + 1] : []));
  if (lost.length > 0 || duplicated.length > 0 || unknown.length > 0) return { problem: { lost, duplicated, unknown } };
  return { html, inOrder };
}
