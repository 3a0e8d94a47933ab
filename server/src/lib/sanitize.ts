import sanitizeHtml from 'sanitize-html';
import { MEDIA_URL } from '@pm/protocol/media';
import { formulaRenderer } from './formulas';

/*
 * Rich text of questions, options, translations and set instructions is sanitised on the server
 * before it is stored (the client sanitises again where it renders, with DOMPurify). Allowed:
 * what a rich-text editor produces — paragraphs and headings, inline formatting, sub/sup, lists,
 * tables, links, images (our uploads under /media/, https, http upgraded to https, and data:image
 * of raster types), code — and formulas (docs/authoring.md): the editor's formula nodes with their
 * LaTeX source, which lib/formulas.ts renders into KaTeX's HTML (spans with classes and a list of
 * layout styles, and the few SVG shapes KaTeX draws; its MathML half is not produced). Scripts,
 * event handlers, iframes, forms, SVG and MathML from the input, and styles that could load
 * anything (url(), expression()) are removed; links and image addresses are also checked by
 * parsing them (checkAddress below).
 */

const INLINE = ['span', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'mark', 'sub', 'sup', 'small', 'code', 'br', 'wbr', 'a', 'img'];
const BLOCK = ['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'ul', 'ol', 'li', 'figure', 'figcaption'];
const TABLE = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col'];

/** CSS values allowed in style attributes: plain lengths, colours and keywords, never url() or expression(). */
const LENGTH = /^-?\d*\.?\d+(px|em|rem|ex|%|pt|vw|vh)?$/i;
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.\s,%]+\)|hsla?\(\s*[\d.\s,%deg]+\)|[a-z]{3,20})$/i;
const KEYWORD = /^[a-z-]{1,30}$/i;
/** One to four lengths (margin shorthand; KaTeX's array separators use `0 -0.02em`). */
const LENGTHS = /^(-?\d*\.?\d+(px|em|rem|ex|%|pt)?)(\s+-?\d*\.?\d+(px|em|rem|ex|%|pt)?){0,3}$/i;
/** KaTeX's wide accents leave room for the skew: `calc(100% - 0.3333em)`. */
const CALC_WIDTH = /^calc\(100% - \d*\.?\d+em\)$/;
const BORDER_STYLE = /^(none|solid|dashed|dotted|double)$/i;

const STYLES: Record<string, RegExp[]> = {
  color: [COLOUR],
  'background-color': [COLOUR],
  'text-align': [/^(left|right|center|justify|start|end)$/i],
  'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/i],
  'font-style': [/^(normal|italic|oblique)$/i],
  'text-decoration': [/^[a-z\s-]{1,40}$/i],
  'vertical-align': [LENGTH, KEYWORD],
  'font-size': [LENGTH, KEYWORD],
  // Also KaTeX's calc() for wide accents (that one shape of it: no url(), no nesting).
  width: [LENGTH, /^auto$/i, CALC_WIDTH],
  height: [LENGTH, /^auto$/i],
  'min-width': [LENGTH],
  'max-width': [LENGTH],
  'margin-left': [LENGTH],
  'margin-right': [LENGTH],
  'padding-left': [LENGTH],
  'border-bottom-width': [LENGTH],
  top: [LENGTH],
  left: [LENGTH],
  position: [/^(relative|absolute)$/i],
  display: [/^(inline|inline-block|block|table|table-cell|table-row|none)$/i],
  // The rest of what KaTeX's HTML output sets (katex.mjs: every `style.*` it assigns; the
  // formulas test renders a corpus of LaTeX and checks that the sanitiser changes nothing).
  bottom: [LENGTH],
  'margin-top': [LENGTH],
  margin: [LENGTHS],
  'border-color': [COLOUR],
  'border-style': [BORDER_STYLE],
  'border-width': [LENGTH],
  'border-top-width': [LENGTH],
  'border-right-width': [LENGTH],
  'border-right-style': [BORDER_STYLE],
  'text-shadow': [/^(-?\d*\.?\d+(px|em)?\s*){2,3}$/i],
};

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,[a-z0-9+/=\s]+$/i;

/** Any origin serves as the base of relative addresses: only a scheme or an authority changes the host. */
const SITE_ORIGIN = 'https://site.invalid';

/**
 * A link or image address as a browser reads it (docs/security.md "Headers, CSP and links"), on top of sanitize-html's scheme
 * list: parsed, not matched. A relative address must stay on the site and not resolve to a path
 * starting with `//`; an absolute one must carry no user name or password (in
 * `https://site.example@evil.example` the host is evil.example). An http image becomes https, as
 * browsers do on an https page, because the CSP's img-src allows https: only
 * (lib/security-headers). Returns the address to keep, or null to drop it.
 */
function checkAddress(value: string, image: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value, SITE_ORIGIN);
  } catch {
    return null;
  }
  if (!URL.canParse(value)) {
    // A relative image is one of our uploads (docs/authoring.md): nothing else on the site is a picture
    // for a question, and a path elsewhere would only make a learner's browser request it.
    if (image) return MEDIA_URL.test(value) ? value : null;
    return url.origin === SITE_ORIGIN && !url.pathname.startsWith('//') ? value : null;
  }
  if (url.username !== '' || url.password !== '') return null;
  if (image && url.protocol === 'http:') {
    url.protocol = 'https:';
    return url.href;
  }
  return value;
}

/** Applies checkAddress to one attribute: kept, rewritten or removed. */
function withAddress(attribs: sanitizeHtml.Attributes, name: string, image: boolean): sanitizeHtml.Attributes {
  const value = attribs[name];
  if (value === undefined) return attribs;
  const checked = checkAddress(value, image);
  // In place, so that the attributes keep their order in the stored HTML.
  return Object.fromEntries(Object.entries(attribs).flatMap(([k, v]) => (k !== name ? [[k, v]] : checked === null ? [] : [[k, checked]])));
}

/** What the input may hold. */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...INLINE, ...BLOCK, ...TABLE],
  allowedAttributes: {
    '*': ['class', 'style', 'title', 'lang', 'dir', 'aria-hidden'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    // Editors keep a formula's source beside its rendering (Quill's ql-formula; TipTap's
    // inline-math span and block-math div, which lib/formulas.ts renders).
    span: ['data-value', 'data-latex', 'data-type'],
    div: ['data-latex', 'data-type'],
    ol: ['start', 'type', 'reversed'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align', 'scope'],
    col: ['span', 'width'],
    colgroup: ['span'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  allowedStyles: { '*': STYLES },
  // A data: URL in an image must be a raster image (an SVG could carry script).
  exclusiveFilter: (frame) => frame.tag === 'img' && (!frame.attribs.src || (/^\s*data:/i.test(frame.attribs.src) && !DATA_IMAGE.test(frame.attribs.src))),
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...withAddress(attribs, 'href', false), ...(attribs.target && { target: '_blank', rel: 'noopener noreferrer' }) } }),
    // An image without a src is then removed by exclusiveFilter.
    img: (tagName, attribs) => ({ tagName, attribs: withAddress(attribs, 'src', true) }),
  },
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'svg', 'math'],
};

/**
 * The SVG that KaTeX draws in its HTML output (the radical of \sqrt, stretchy arrows and accents,
 * braces, tall delimiters, \cancel): svg, path and line with geometry only (katex.mjs SvgNode,
 * PathNode, LineNode). Each attribute value must have its geometric shape; no href, no event
 * handler, no style beyond STYLES, no other SVG element can pass. sanitize-html's parser
 * lower-cases the names (viewbox, preserveaspectratio); dom-serializer (lib/formulas) and any HTML
 * parser restore SVG's case (HTML §13.2.6.5).
 */
const SVG_ATTRIBUTES: Record<string, Record<string, RegExp>> = {
  svg: {
    width: LENGTH,
    height: LENGTH,
    viewbox: /^-?\d*\.?\d+(\s+-?\d*\.?\d+){3}$/,
    preserveaspectratio: /^(none|x(Min|Mid|Max)Y(Min|Mid|Max)(\s+(meet|slice))?)$/,
    style: /^[^()]*$/,
  },
  path: { d: /^[MmLlHhVvCcSsQqTtAaZz\d\s.,-]+$/ },
  line: { x1: LENGTH, y1: LENGTH, x2: LENGTH, y2: LENGTH, 'stroke-width': LENGTH },
};

/** Keeps an SVG element's attributes whose values have their shape (styles are then filtered as anywhere else). */
function svgShape(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const shapes = SVG_ATTRIBUTES[tagName] ?? {};
  return { tagName, attribs: Object.fromEntries(Object.entries(attribs).filter(([k, v]) => shapes[k]?.test(v) === true)) };
}

/**
 * KaTeX's output: the same rules plus its SVG. Applied to each formula's rendering alone, never to
 * the input, which goes through OPTIONS (and loses any SVG of its own) first.
 */
const RENDERED_OPTIONS: sanitizeHtml.IOptions = {
  ...OPTIONS,
  allowedTags: [...INLINE, ...BLOCK, ...TABLE, ...Object.keys(SVG_ATTRIBUTES)],
  allowedAttributes: { ...OPTIONS.allowedAttributes, ...Object.fromEntries(Object.entries(SVG_ATTRIBUTES).map(([tag, attrs]) => [tag, Object.keys(attrs)])) },
  transformTags: { ...OPTIONS.transformTags, ...Object.fromEntries(Object.keys(SVG_ATTRIBUTES).map((tag) => [tag, svgShape])) },
  nonTextTags: OPTIONS.nonTextTags!.filter((t) => t !== 'svg'),
};

const renderFormulas = formulaRenderer((katexHtml) => sanitizeHtml(katexHtml, RENDERED_OPTIONS));

/**
 * Cleans one piece of rich text and renders its formulas: the input is sanitised, then each
 * formula node gets KaTeX's rendering of its source (lib/formulas.ts), itself sanitised with
 * RENDERED_OPTIONS. Both parts are sanitised, and a formula node's content is only ever the
 * checked rendering, so the whole needs no third pass. Rendering on every save makes it
 * idempotent: what the editor loads back and saves unchanged stays the same.
 */
export function cleanRichText(html: string): string {
  return renderFormulas(sanitizeHtml(html, OPTIONS));
}

/** The name the services use (questions, question sets, static pages): the same as cleanRichText. */
export const sanitizeRichText = cleanRichText;

/** Cleans every value of a map of rich texts (options). */
export function sanitizeMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, cleanRichText(v)]));
}
