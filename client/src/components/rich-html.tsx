import DOMPurify from 'dompurify';
import { type CSSProperties, useMemo } from 'react';

/**
 * Rich text from the server (questions, options, instructions). The server sanitises on write;
 * this sanitises again where it is rendered, so a bad row can never run script in a learner's
 * browser.
 */
export function RichHtml({ html, className, style, inline = false }: { html: string; className?: string; style?: CSSProperties; inline?: boolean }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }), [html]);
  const Tag = inline ? 'span' : 'div';
  return <Tag className={className} style={style} dangerouslySetInnerHTML={{ __html: clean }} />;
}
