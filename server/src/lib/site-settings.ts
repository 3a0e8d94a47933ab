import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { DEFAULT_TRUST_NAME, TRUST_NAME_META } from '@pm/protocol/site';
import type { AppEnv } from '../context';
import type { Config } from '../env';

/*
 * The installation's trust name (docs/configuration.md: TRUST_NAME, TRUST_NAME_HI) in every HTML
 * page the server sends. The build draws the home and login pages with the demo's name, and the
 * app's strings write it as {{trust}} (client/src/config/site.ts). When the installation names
 * another trust, each HTML answer gets
 * - `<meta name="pm-trust-name" content="…" data-hi="…">` in its head, which the app reads before
 *   its first render (so a page it hydrates draws the same name), and
 * - the demo's name replaced by the configured one in what the build drew, so that the page is
 *   right before any script runs.
 * With the demo's name nothing is rewritten (no cost on the default installation).
 */

/** Whether this installation names a trust other than the demo's. */
export function siteSettingsOn(config: Pick<Config, 'TRUST_NAME' | 'TRUST_NAME_HI'>): boolean {
  return config.TRUST_NAME !== DEFAULT_TRUST_NAME.en || config.TRUST_NAME_HI !== DEFAULT_TRUST_NAME.hi;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page with the meta tag in its head and the demo's trust name replaced. */
export function withTrustName(html: string, config: Pick<Config, 'TRUST_NAME' | 'TRUST_NAME_HI'>): string {
  if (html.includes(`name="${TRUST_NAME_META}"`)) return html;
  const en = escapeHtml(config.TRUST_NAME);
  const hi = escapeHtml(config.TRUST_NAME_HI);
  const meta = `<meta name="${TRUST_NAME_META}" content="${en}" data-hi="${hi}">`;
  const replaced = html.split(DEFAULT_TRUST_NAME.en).join(en).split(DEFAULT_TRUST_NAME.hi).join(hi);
  const head = replaced.indexOf('</head>');
  return head === -1 ? meta + replaced : replaced.slice(0, head) + meta + replaced.slice(head);
}

/**
 * The middleware: every successful HTML answer is rewritten (decompressed first when the build
 * sent it precompressed, and sent uncompressed: such pages are a few kB). Only when siteSettingsOn.
 */
export function siteSettings(config: Pick<Config, 'TRUST_NAME' | 'TRUST_NAME_HI'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/html') || c.req.method === 'HEAD') return;
    const coding = res.headers.get('content-encoding');
    if (coding && coding !== 'br' && coding !== 'gzip') return;
    let body = Buffer.from(await res.arrayBuffer());
    if (coding === 'br') body = brotliDecompressSync(body);
    else if (coding === 'gzip') body = gunzipSync(body);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    headers.delete('etag');
    replace(c, new Response(withTrustName(body.toString('utf8'), config), { status: res.status, headers }));
  };
}

/** As in lib/sandbox-banner: cleared first, so Hono copies none of the old answer's headers. */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}
