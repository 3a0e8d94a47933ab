import render from 'dom-serializer';
import type { Element } from 'domhandler';
import { appendChild, findAll, getAttributeValue, removeElement } from 'domutils';
import { parseDocument } from 'htmlparser2';
import katex, { type KatexOptions } from 'katex';

/*
 * Formulas in rich text (docs/authoring.md). The editor (@tiptap/extension-mathematics) stores a formula
 * as its LaTeX source only:
 *   <span data-type="inline-math" data-latex="…"></span>   <div data-type="block-math" data-latex="…"></div>
 * The server renders each one into KaTeX's HTML on write, so that every screen that shows question
 * text (the test screen, the result page, the list, offline on a learner's phone) needs KaTeX's CSS
 * and fonts only, never its 270 kB of JavaScript. The source stays in data-latex: the editor reads
 * it back, and rendering again (on the next save) replaces whatever the node held before.
 *
 * The sanitiser (lib/sanitize.ts) cleans the text before, so that this parser sees only allowed
 * markup, and holds each formula's KaTeX output to its list of tags, attributes and styles
 * (formulaRenderer's `finish`) before it goes in.
 */

/** Longest LaTeX source rendered (a long matrix is ~500 characters); longer ones are shown as source. */
export const MAX_LATEX = 2000;

/**
 * - trust: false — \href, \url, \includegraphics, \htmlClass, \htmlId, \htmlStyle, \htmlData
 *   render as error text, never as links, images or attributes of our choosing.
 * - output 'html' — no MathML half (the sanitiser removes MathML anyway; the visual half is what
 *   learners read, and screen readers are kept out of it by KaTeX's aria-hidden).
 * - maxSize (em) bounds \rule and \kern, which could otherwise cover the screen; maxExpand bounds
 *   macro expansion (\def loops), KaTeX's own guard against run-away input.
 * - strict 'ignore': LaTeX that KaTeX accepts but real LaTeX would warn about (Unicode text in
 *   math mode, common in Hindi questions) renders without a warning.
 */
const KATEX_OPTIONS = {
  throwOnError: false,
  output: 'html',
  trust: false,
  strict: 'ignore',
  maxSize: 20,
  maxExpand: 500,
} as const satisfies KatexOptions;

/** KaTeX's own colour for LaTeX it could not render (its errorColor default). */
const ERROR_STYLE = 'color:#cc0000';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * One formula as KaTeX HTML. A source that is too long, or that KaTeX fails on in a way its
 * throwOnError: false does not cover (a stack overflow on absurd nesting), is shown as its source
 * in KaTeX's error style, as KaTeX itself shows a parse error.
 */
export function renderFormula(latex: string, block: boolean): string {
  if (latex.length <= MAX_LATEX) {
    try {
      return katex.renderToString(latex, { ...KATEX_OPTIONS, displayMode: block });
    } catch {
      // Shown as source below.
    }
  }
  return `<span class="katex-error" style="${ERROR_STYLE}">${escapeHtml(latex)}</span>`;
}

/** A formula node of the editor: an inline span or a block div with the matching data-type. */
function formulaKind(el: Element): 'inline' | 'block' | null {
  const type = el.attribs['data-type'];
  if (el.name === 'span' && type === 'inline-math') return 'inline';
  if (el.name === 'div' && type === 'block-math') return 'block';
  return null;
}

const isFormula = (el: Element) => formulaKind(el) !== null;

/** Cheap test before parsing: most rich text has no formula at all. */
const MAY_HAVE_FORMULA = /data-type\s*=\s*["']?(inline|block)-math/i;

/** Rendered formulas kept (each 1-5 kB): a question saved again, or edited, renders only what changed. */
const CACHE_MAX = 1000;

/**
 * A renderer of the formulas in rich text. `finish` is applied to each formula's KaTeX HTML once
 * (the sanitiser passes its own check of KaTeX's output); the result is remembered per source and
 * mode, since rendering and checking cost ~1 ms a formula and the same ones come back on every
 * save of a question.
 */
export function formulaRenderer(finish: (katexHtml: string) => string = (h) => h) {
  const cache = new Map<string, string>();
  function formula(latex: string, block: boolean): string {
    const key = `${block ? 'B' : 'I'}${latex}`;
    let html = cache.get(key);
    if (html === undefined) {
      html = finish(renderFormula(latex, block));
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    } else cache.delete(key);
    // Most recently used last, so the oldest is the first to go.
    cache.set(key, html);
    return html;
  }

  /**
   * Renders every formula node of `html`, replacing the node's content; everything else is kept
   * byte for byte. Returns the same string when there is no formula. Parsed and rebuilt with
   * htmlparser2 and dom-serializer (the parser sanitize-html uses), never edited with patterns.
   *
   * The tree that is rebuilt keeps entities as they were written (decodeEntities: false, the
   * faithful round trip of dom-serializer): markup characters stay encoded as the sanitiser wrote
   * them, Hindi stays UTF-8. The sources are read from a second, decoded parse of the same text,
   * whose formula nodes come in the same order.
   */
  return function renderFormulas(html: string): string {
    if (!MAY_HAVE_FORMULA.test(html)) return html;
    const doc = parseDocument(html, { decodeEntities: false });
    const nodes = findAll(isFormula, doc);
    if (nodes.length === 0) return html;
    const sources = findAll(isFormula, parseDocument(html)).map((el) => getAttributeValue(el, 'data-latex') ?? '');
    nodes.forEach((node, i) => {
      // A formula inside another one's old content was detached when its parent was rendered.
      if (!isAttached(node, doc)) return;
      for (const child of [...node.children]) removeElement(child);
      const rendered = parseDocument(formula(sources[i] ?? '', formulaKind(node) === 'block'), { decodeEntities: false });
      for (const child of [...rendered.children]) appendChild(node, child);
    });
    return render(doc, { decodeEntities: false });
  };
}

/** Renders the formulas of `html` with KaTeX's output as it is (the sanitiser uses its own renderer). */
export const renderFormulas = formulaRenderer();

function isAttached(node: Element, root: object): boolean {
  let p = node.parent;
  while (p && p !== root) p = p.parent;
  return p === root;
}
