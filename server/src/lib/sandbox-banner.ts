import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import type { Config } from '../env';

/*
 * A production installation that takes its payments from the sandbox (PAYMENT_PROVIDER=sandbox
 * with ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true; env.ts) says so on every page: a banner, in
 * English and Hindi, that no money is taken (docs/security.md, "Production that cannot be
 * fooled"). The server writes it into every HTML page it sends (the app's shell, the pages the
 * build drew (`/`, `/login`), `/plan` drawn per request, `/index.html` that the service worker
 * keeps for offline use), so that it is there before any script runs, also on the home page,
 * whose app starts only when the visitor reaches for it. It sits outside the app's root, which
 * React never touches, and sticks to the bottom of the screen: at 360 px it wraps onto two or
 * three lines, and at the end of the page it takes its own place below the footer rather than
 * covering it. Inline styles: the site's CSP allows them (lib/security-headers).
 */

/** The banner's element id (tests find it by it). */
export const SANDBOX_BANNER_ID = 'pm-sandbox-banner';

const STYLE = [
  'position:sticky',
  'bottom:0',
  // Above the app's fixed header (100), below Mantine's dialogs and menus (200 and up).
  'z-index:150',
  'box-sizing:border-box',
  'width:100%',
  'padding:8px 12px',
  'background:#8a1c00',
  'color:#fff',
  'font:600 14px/1.4 system-ui,sans-serif',
  'text-align:center',
  'overflow-wrap:anywhere',
].join(';');

export const SANDBOX_BANNER_TEXT = {
  en: 'Trial installation: payments go to a sandbox and no money is taken. Plans and receipts here are not real.',
  hi: 'परीक्षण इंस्टॉलेशन: भुगतान सैंडबॉक्स में जाते हैं और कोई पैसा नहीं लिया जाता। यहाँ के प्लान और रसीदें असली नहीं हैं।',
} as const;

export const SANDBOX_BANNER_HTML =
  `<div id="${SANDBOX_BANNER_ID}" role="note" lang="en" style="${STYLE}">` +
  `${SANDBOX_BANNER_TEXT.en} <span lang="hi">${SANDBOX_BANNER_TEXT.hi}</span></div>`;

/** Whether this installation's pages carry the banner: production, paid through the sandbox. */
export function sandboxBannerOn(config: Pick<Config, 'NODE_ENV' | 'PAYMENT_PROVIDER'>): boolean {
  return config.NODE_ENV === 'production' && config.PAYMENT_PROVIDER === 'sandbox';
}

/** The page with the banner as the last element of its body (a page without `</body>` gets it at the end). */
export function withSandboxBanner(html: string): string {
  if (html.includes(`id="${SANDBOX_BANNER_ID}"`)) return html;
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + SANDBOX_BANNER_HTML : html.slice(0, end) + SANDBOX_BANNER_HTML + html.slice(end);
}

/**
 * The middleware: every successful HTML answer gets the banner. The build's pages come
 * precompressed (lib/client-files); such a body is decompressed, given the banner and sent as it
 * is then (a trial installation's pages are a few kB: no need to compress them again). Only when
 * sandboxBannerOn; anything else passes untouched.
 */
export function sandboxBanner(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/html')) return;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    if (c.req.method === 'HEAD') {
      headers.delete('content-encoding');
      replace(c, new Response(null, { status: res.status, headers }));
      return;
    }
    const coding = res.headers.get('content-encoding');
    if (coding && coding !== 'br' && coding !== 'gzip') return;
    let body = Buffer.from(await res.arrayBuffer());
    if (coding === 'br') body = brotliDecompressSync(body);
    else if (coding === 'gzip') body = gunzipSync(body);
    headers.delete('content-encoding');
    replace(c, new Response(withSandboxBanner(body.toString('utf8')), { status: res.status, headers }));
  };
}

/**
 * Puts `res` in place of the answer. Hono's `c.res = …` copies the old answer's headers onto the
 * new one (its Content-Encoding and Content-Length among them); cleared first, it copies none.
 */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}
