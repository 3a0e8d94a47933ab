import { Marked } from 'marked';
import type { ImportIssue, ImportIssueCode } from '@pm/protocol/question-import';
import type { QuestionType } from '@pm/protocol/question';
import type { TagRef } from './tag-ref';

/** A question as a format reads it, before its tags are looked up and its rules checked. */
export type Draft = {
  q: string;
  ops: Record<string, string>;
  ca: string[];
  qt: QuestionType;
  d?: string;
  /** The explanation (rich text), when the file gives one. */
  expl?: string;
  trans?: Record<string, { q: string; ops: Record<string, string>; ca: string[]; expl?: string }>;
  tags: TagRef[];
};

/** One row of a file: its place, the draft (when it could be read) and what is wrong with it. */
export type ParsedRow = {
  n: number;
  line?: number;
  title?: string;
  draft: Draft | null;
  /** The type the row has, when known even if it cannot be read (for the preview). */
  qt: QuestionType | null;
  /**
   * Plain text of the question for the preview: needed when there is no draft, and when there is
   * one it is excerpt(draft.q) (left out, the preview computes that).
   */
  text?: string;
  errors: ImportIssue[];
  warnings: ImportIssue[];
};

export const issue = (code: ImportIssueCode, params?: Record<string, string | number>): ImportIssue => (params ? { code, params } : { code });

/** Option keys in order: a, b, c, … (the editor's keys). */
export const OPTION_KEYS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** The lines of a file one at a time, as `split(/\r\n|\r|\n/)` gives them (a leading BOM left out). */
export function* linesOf(content: string): Generator<string> {
  const text = content.replace(/^\uFEFF/, '');
  const end = /\r\n|\r|\n/g;
  let at = 0;
  for (let m = end.exec(text); m; m = end.exec(text)) {
    yield text.slice(at, m.index);
    at = end.lastIndex;
  }
  yield text.slice(at);
}

/** Text as HTML text: &, < and > escaped (quotes need none outside attributes; the sanitiser writes them bare). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text as one paragraph of rich text, line breaks kept, as the sanitiser writes it. */
export function plainToHtml(s: string): string {
  return `<p>${escapeHtml(s.trim()).replace(/\r?\n/g, '<br />')}</p>`;
}

/** Whether a cell or text holds HTML markup (then it is kept as rich text). */
export const looksLikeHtml = (s: string) => /<\/?[a-z][a-z0-9]*\b[^>]*>/i.test(s);

const markdown = new Marked({ async: false, gfm: true, breaks: false });
/** Markdown (GIFT's [markdown]) as HTML; sanitised later with every other rich text. */
export function markdownToHtml(s: string): string {
  return markdown.parse(s.trim()) as string;
}

/** Rich text as plain text (for Aiken, which holds text only, and for the preview). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/gi, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

export const excerpt = (html: string) => {
  const t = htmlToText(html).replace(/\s+/g, ' ');
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
};
