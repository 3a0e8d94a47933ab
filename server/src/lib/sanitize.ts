import sanitizeHtml from 'sanitize-html';

/*
 * Rich text of questions, options, translations and set instructions is sanitised on the server
 * before it is stored (the client sanitises again where it renders, with DOMPurify). Allowed:
 * what a rich-text editor produces — paragraphs and headings, inline formatting, sub/sup, lists,
 * tables, links, images (https, http upgraded to https, and data:image of raster types), code —
 * and KaTeX's HTML output (spans with classes and a few layout styles; its MathML half is not
 * allowed). Scripts, event handlers, iframes, forms, SVG and styles that could load anything
 * (url(), expression()) are removed; links and image addresses are also checked by parsing them
 * (checkAddress below).
 */

const INLINE = ['span', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'mark', 'sub', 'sup', 'small', 'code', 'br', 'wbr', 'a', 'img'];
const BLOCK = ['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'ul', 'ol', 'li', 'figure', 'figcaption'];
const TABLE = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col'];

/** CSS values allowed in style attributes: plain lengths, colours and keywords, never url() or expression(). */
const LENGTH = /^-?\d*\.?\d+(px|em|rem|ex|%|pt|vw|vh)?$/i;
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.\s,%]+\)|hsla?\(\s*[\d.\s,%deg]+\)|[a-z]{3,20})$/i;
const KEYWORD = /^[a-z-]{1,30}$/i;

const STYLES: Record<string, RegExp[]> = {
  color: [COLOUR],
  'background-color': [COLOUR],
  'text-align': [/^(left|right|center|justify|start|end)$/i],
  'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/i],
  'font-style': [/^(normal|italic|oblique)$/i],
  'text-decoration': [/^[a-z\s-]{1,40}$/i],
  'vertical-align': [LENGTH, KEYWORD],
  'font-size': [LENGTH, KEYWORD],
  width: [LENGTH, /^auto$/i],
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
};

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,[a-z0-9+/=\s]+$/i;

/** Any origin serves as the base of relative addresses: only a scheme or an authority changes the host. */
const SITE_ORIGIN = 'https://site.invalid';

/**
 * A link or image address as a browser reads it (issue 16 §7), on top of sanitize-html's scheme
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
  if (!URL.canParse(value)) return url.origin === SITE_ORIGIN && !url.pathname.startsWith('//') ? value : null;
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

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...INLINE, ...BLOCK, ...TABLE],
  allowedAttributes: {
    '*': ['class', 'style', 'title', 'lang', 'dir', 'aria-hidden'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    // Editors keep a formula's source beside its rendering (Quill's ql-formula, TipTap's math).
    span: ['data-value', 'data-latex', 'data-type'],
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

/** Cleans one piece of rich text. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Cleans every value of a map of rich texts (options). */
export function sanitizeMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, sanitizeRichText(v)]));
}
