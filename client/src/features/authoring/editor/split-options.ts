import type { JSONContent } from '@tiptap/core';

/**
 * The option label an editor types before an option (a 3- or
 * 4-character prefix): `(a) `, `(1) ` (4 characters), `a) `, `A. `, `1) ` (3 characters). One
 * letter or digit, closed by `)` or `.`, then a space (or a no-break space, which pasted text
 * often holds). Without the space the text is left alone: "a.m." or "1.5" are not labels.
 */
export const OPTION_PREFIX = /^(?:\([A-Za-z0-9]\)|[A-Za-z0-9][.)])[ \u00a0]/;

/** How many of the question's last paragraphs become options (four, a–d; docs/authoring.md). */
export const SPLIT_COUNT = 4;

const isParagraph = (n: JSONContent) => n.type === 'paragraph';
/** A paragraph with nothing in it but spaces (the empty line an editor often leaves at the end). */
function isEmptyParagraph(n: JSONContent): boolean {
  if (!isParagraph(n)) return false;
  return (n.content ?? []).every((c) => c.type === 'text' && (c.text ?? '').replace(/\u00a0/g, ' ').trim() === '');
}

/**
 * Removes the option label from the start of a paragraph. The label may be spread over text
 * nodes of different marks ("**(a)** text"), so the leading run of text nodes is read as one
 * string and the prefix's characters are taken from those nodes in turn.
 */
export function stripOptionPrefix(paragraph: JSONContent): JSONContent {
  const content = paragraph.content ?? [];
  let lead = '';
  for (const node of content) {
    if (node.type !== 'text') break;
    lead += node.text ?? '';
    if (lead.length >= 4) break;
  }
  const match = OPTION_PREFIX.exec(lead);
  if (!match) return paragraph;
  let remove = match[0].length;
  const out: JSONContent[] = [];
  for (const node of content) {
    if (remove > 0 && node.type === 'text') {
      const text = node.text ?? '';
      const cut = Math.min(remove, text.length);
      remove -= cut;
      if (cut < text.length) out.push({ ...node, text: text.slice(cut) });
      continue;
    }
    out.push(node);
  }
  return { ...paragraph, content: out };
}

/**
 * The editor's shortcut (Ctrl+Enter or Shift+Enter; docs/authoring.md): the question's
 * last `count` paragraphs become its options, in order, without their labels, and leave the
 * question. Empty paragraphs at the end are ignored. `null` when the question does not end in
 * `count` paragraphs with something in them (a list or a block formula among the last blocks is
 * not split up: it is part of the question).
 */
export function splitLastParagraphs(doc: JSONContent, count = SPLIT_COUNT): { question: JSONContent; options: JSONContent[] } | null {
  const blocks = [...(doc.content ?? [])];
  while (blocks.length > 0 && isEmptyParagraph(blocks[blocks.length - 1]!)) blocks.pop();
  if (blocks.length < count) return null;
  const tail = blocks.slice(blocks.length - count);
  if (!tail.every((b) => isParagraph(b) && !isEmptyParagraph(b))) return null;
  const rest = blocks.slice(0, blocks.length - count);
  return {
    // A document needs a block; an emptied question keeps one empty paragraph.
    question: { ...doc, content: rest.length > 0 ? rest : [{ type: 'paragraph' }] },
    options: tail.map(stripOptionPrefix),
  };
}
