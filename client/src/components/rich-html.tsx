import DOMPurify from 'dompurify';
import { type CSSProperties, useMemo } from 'react';

/** Sanitised HTML by source, so that a question seen again (or prepared ahead) costs nothing. */
const cache = new Map<string, string>();
const CACHE_MAX = 2000;

/** The HTML made safe to insert (DOMPurify, HTML profile), remembered for the next time. */
export function sanitizeHtml(html: string): string {
  let clean = cache.get(html);
  if (clean === undefined) {
    // svg: KaTeX draws square roots, stretchy arrows and tall brackets as inline SVG (the server
    // keeps only its own geometry elements; DOMPurify's SVG profile still removes script).
    clean = DOMPurify.sanitize(html, { USE_PROFILES: { html: true, svg: true } });
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(html, clean);
  }
  return clean;
}

/**
 * Rich text from the server (questions, options, instructions). The server sanitises on write;
 * this sanitises again where it is rendered, so a bad row can never run script in a learner's
 * browser.
 */
export function RichHtml({ html, className, style, inline = false }: { html: string; className?: string; style?: CSSProperties; inline?: boolean }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  const Tag = inline ? 'span' : 'div';
  return <Tag className={className} style={style} dangerouslySetInnerHTML={{ __html: clean }} />;
}
