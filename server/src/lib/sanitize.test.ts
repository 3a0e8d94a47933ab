import type { AnyNode } from 'domhandler';
import { findAll } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { renderFormula } from './formulas';
import { cleanRichText, sanitizeMap, sanitizeRichText } from './sanitize';

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const inline = (latex: string, content = '') => `<span data-type="inline-math" data-latex="${attr(latex)}">${content}</span>`;
const block = (latex: string, content = '') => `<div data-type="block-math" data-latex="${attr(latex)}">${content}</div>`;
const HASH = 'ab'.repeat(32);

/**
 * The markup as a comparable outline: elements with their attributes (names lower-cased as an HTML
 * parser sees them, styles as a list of declarations, KaTeX's xmlns left out since HTML ignores it)
 * and text.
 */
function outline(html: string): unknown[] {
  const walk = (nodes: AnyNode[]): unknown[] =>
    nodes.map((n) => {
      if (n.type === 'text') return n.data;
      if (!('attribs' in n)) return null;
      const attribs = Object.entries(n.attribs)
        .filter(([k]) => k !== 'xmlns')
        .map(([k, v]) => [k.toLowerCase(), k === 'style' ? v.split(';').map((d) => d.replace(/\s+/g, '')).filter(Boolean) : v])
        .sort();
      return [n.name, attribs, walk(n.children)];
    });
  return walk(parseDocument(html).children);
}

/**
 * LaTeX of the kinds exam questions use, chosen to make KaTeX emit every style property and SVG
 * shape it has (fractions, roots, stretchy arrows and accents, braces, tall delimiters, arrays with
 * rules, colour boxes, cancel, phantoms, rules and kerns, Hindi text).
 */
const CORPUS = [
  'x^2+y_1',
  '\\frac{a}{b}',
  '\\sqrt[3]{x^2+1}',
  '\\sqrt{\\frac{\\frac{1}{2}}{\\frac{3}{4}}}',
  '\\dfrac{\\partial f}{\\partial x}',
  '\\int_0^\\infty e^{-x^2}\\,dx',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '\\lim_{x\\to 0}\\frac{\\sin x}{x}',
  '\\vec{F} = m\\vec{a}',
  '\\overrightarrow{AB} \\overleftarrow{AB} \\overleftrightarrow{AB} \\underrightarrow{AB}',
  '\\widehat{ABC} \\widetilde{xyz} \\widehat{f} \\utilde{AB}',
  '\\overline{AB} \\underline{x} \\mathring{A} \\dot{x}\\ddot{x}',
  '\\overbrace{a+b}^{n} \\underbrace{a+b}_{n}',
  '\\xrightarrow[T]{\\Delta} \\xleftarrow{a} \\xrightleftharpoons{}',
  '\\cancel{x} \\bcancel{y} \\xcancel{z} \\sout{abc}',
  '\\boxed{E=mc^2} \\fbox{a}',
  '\\colorbox{yellow}{x} \\fcolorbox{red}{yellow}{x} \\color{blue}{x} \\textcolor{#f00}{y}',
  '\\left(\\begin{matrix}1\\\\2\\\\3\\\\4\\\\5\\\\6\\\\7\\\\8\\end{matrix}\\right)',
  '\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix} \\begin{bmatrix}1\\\\2\\\\3\\end{bmatrix}',
  '\\left\\{\\begin{array}{l|r}a&b\\\\ \\hline c&d\\end{array}\\right.',
  '\\begin{array}{c:c}a&b\\end{array}',
  '\\begin{cases}x&x>0\\\\-x&x\\le0\\end{cases}',
  '\\begin{aligned}a&=b\\\\c&=d\\end{aligned}',
  '\\left[\\frac{\\frac{a}{b}}{\\frac{c}{d}}\\right] \\Bigg( x \\Bigg) \\left\\| \\frac{a}{b} \\right\\|',
  '\\angl{n} \\phase{-78^\\circ}',
  '\\not= \\neq \\mathbb{R} \\mathcal{L} \\mathfrak{g} \\mathrm{H_2O}',
  '\\text{हिंदी पाठ} = \\text{speed} = \\frac{d}{t}',
  '\\rule{2em}{0.4pt} \\kern1em \\hspace{2em} a\\raisebox{0.25em}{b}',
  '\\pmb{x} \\binom{n}{k} \\pm\\times\\div\\cdot\\circ',
  '\\sin^2\\theta+\\cos^2\\theta=1 \\quad 30^\\circ \\quad \\angle ABC \\cong \\triangle DEF',
  '\\overset{?}{=} \\stackrel{def}{=} \\tiny a \\Huge b',
  '\\vphantom{x}\\hphantom{y}\\phantom{z} \\mathllap{x}\\mathrlap{y} \\smash{x}',
  '\\genfrac(]{0pt}{2}{a+b}{c+d} \\cfrac{1}{1+\\cfrac{1}{x}} \\big\\lfloor x \\big\\rfloor',
  '\\frac{1}{',
];

describe('formulas through the sanitiser', () => {
  test.each(CORPUS.flatMap((latex) => [[latex, false] as const, [latex, true] as const]))('KaTeX output of %s (display %s) is kept exactly', (latex, display) => {
    const html = display ? block(latex) : inline(latex);
    const clean = cleanRichText(html);
    const tag = display ? 'div' : 'span';
    const expected = `<${tag} data-type="${display ? 'block' : 'inline'}-math" data-latex="${attr(latex)}">${renderFormula(latex, display)}</${tag}>`;
    expect(outline(clean)).toEqual(outline(expected));
  });

  test('KaTeX SVG keeps its geometry (the radical of \\sqrt is drawn)', () => {
    const clean = cleanRichText(inline('\\sqrt{2}'));
    expect(clean).toMatch(/<svg width="400em" height="[\d.]+em" viewbox="0 0 400000 \d+" preserveaspectratio="xMinYMin slice"><path d="M95,702/i);
  });

  test('cleaning is idempotent: what the editor saves back unchanged stays the same', () => {
    const html = `<p>यदि ${inline('\\sqrt{x}')} और <img src="/media/${HASH}.png" alt="चित्र"></p>${block('\\frac{a}{b}')}`;
    const once = cleanRichText(html);
    expect(cleanRichText(once)).toBe(once);
  });

  test('sanitizeRichText and sanitizeMap render formulas too (the services call them)', () => {
    expect(sanitizeRichText).toBe(cleanRichText);
    expect(sanitizeMap({ a: inline('x'), b: '<p>y</p>' })).toEqual({ a: cleanRichText(inline('x')), b: '<p>y</p>' });
  });

  test.each([
    '\\href{javascript:alert(1)}{click}',
    '\\url{https://evil.example}',
    '\\includegraphics{https://evil.example/x.png}',
    '\\htmlClass{evil}{x}',
    '\\htmlStyle{background:url(https://evil.example)}{x}',
  ])('%s makes no link, image or trusted HTML', (latex) => {
    for (const html of [inline(latex), block(latex)]) {
      const clean = cleanRichText(html).replace(/data-latex="[^"]*"/, '');
      expect(clean).not.toMatch(/<a\b|href=|<img|src=|evil|url\(/);
      expect(clean).toContain('katex');
    }
  });

  test('a source that tries to break out of its attribute stays text', () => {
    const clean = cleanRichText(inline('"><script>alert(1)</script><img src=x onerror=alert(1)>'));
    // As text it may be there (the source, and KaTeX showing it); as markup it may not.
    const elements = findAll(() => true, parseDocument(clean).children);
    expect(elements.filter((e) => e.name !== 'span')).toEqual([]);
    expect(elements.flatMap((e) => Object.keys(e.attribs)).filter((a) => !['class', 'style', 'aria-hidden', 'data-type', 'data-latex', 'title'].includes(a))).toEqual([]);
    expect(clean.startsWith('<span data-type="inline-math" data-latex="&quot;&gt;&lt;script&gt;')).toBe(true);
  });
});

describe('what is removed', () => {
  test.each([
    ['a script', '<p>a<script>alert(1)</script></p>', '<p>a</p>'],
    ['event handlers', '<p onclick="alert(1)">a<img src="https://x.example/a.png" onerror="alert(1)"></p>', '<p>a<img src="https://x.example/a.png" /></p>'],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['a JaVaScRiPt: link with entities', '<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
    ['SVG with script', '<p>a<svg onload="alert(1)"><script>alert(1)</script><path d="M0 0"/></svg></p>', '<p>a</p>'],
    ['MathML', '<p>a<math><mi>x</mi></math></p>', '<p>a</p>'],
    ['an iframe', '<iframe src="https://evil.example"></iframe><p>a</p>', '<p>a</p>'],
    ['a style element', '<style>body{display:none}</style><p>a</p>', '<p>a</p>'],
    ['a style that loads', '<p style="background-image:url(https://evil.example/x);color:red">a</p>', '<p style="color:red">a</p>'],
    ['a calc() other than KaTeX\'s', '<span style="width:calc(100% - url(x))">a</span>', '<span>a</span>'],
    ['an SVG data image', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', ''],
  ])('%s', (_name, html, expected) => {
    expect(cleanRichText(html)).toBe(expected);
  });

  test('SVG sent inside a formula node is replaced by the rendering', () => {
    const clean = cleanRichText(inline('x', '<svg onload="alert(1)"><a href="javascript:alert(1)"><path d="M0 0"/></a></svg>'));
    expect(clean).not.toMatch(/onload|javascript|<a\b|M0 0/);
    expect(clean).toContain('class="katex"');
  });

  test('SVG elsewhere than KaTeX put it does not survive, even in a rendered text', () => {
    const clean = cleanRichText(`<p><svg width="10" height="10"><path d="M0 0L10 10"/></svg></p>${inline('x')}`);
    expect(clean.startsWith('<p></p>')).toBe(true);
    expect(clean).not.toContain('M0 0L10 10');
  });
});

describe('images', () => {
  test.each([
    ['our upload', `<img src="/media/${HASH}.png" alt="a">`, `<img src="/media/${HASH}.png" alt="a" />`],
    ['our WebP and JPEG', `<img src="/media/${HASH}.webp"><img src="/media/${HASH}.jpg">`, `<img src="/media/${HASH}.webp" /><img src="/media/${HASH}.jpg" />`],
    ['an https image', '<img src="https://cdn.example/a.png">', '<img src="https://cdn.example/a.png" />'],
    ['an http image, upgraded', '<img src="http://cdn.example/a.png">', '<img src="https://cdn.example/a.png" />'],
  ])('%s is kept', (_name, html, expected) => {
    expect(cleanRichText(html)).toBe(expected);
  });

  test.each([
    ['another path on the site', '<img src="/api/UserLogin/logout">'],
    ['a relative path', `<img src="media/${HASH}.png">`],
    ['a way out of /media/', `<img src="/media/../api/x/${HASH}.png">`],
    ['an upper-case hash', `<img src="/media/${HASH.toUpperCase()}.png">`],
    ['another extension', `<img src="/media/${HASH}.svg">`],
    ['a protocol-relative address', '<img src="//evil.example/a.png">'],
    ['a javascript: address', '<img src="javascript:alert(1)">'],
  ])('%s is removed', (_name, html) => {
    expect(cleanRichText(html)).toBe('');
  });

  test('links may still point anywhere on the site', () => {
    expect(cleanRichText('<a href="/exam-list">x</a>')).toBe('<a href="/exam-list">x</a>');
  });
});
