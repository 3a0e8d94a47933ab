/**
 * The security headers of every response (docs/security.md "Headers, CSP and links"). The site (index.html, the service
 * worker, the manifest) gets a strict Content-Security-Policy; the API, whose answers are JSON
 * and never rendered as a page, gets a policy that allows nothing and `Cache-Control: no-store`;
 * uploaded images a sandboxing policy; the build's scripts, styles and fonts only the headers
 * that apply to a subresource. All are built once; the middleware in app.ts only picks one.
 */

/** Where browsers send violation reports (modules/csp-report). */
export const CSP_REPORT_PATH = '/api/csp-report';
/** The Reporting API endpoint name that `report-to` refers to (Reporting-Endpoints header). */
const REPORT_GROUP = 'csp';

/**
 * The policy of the site, one directive per line:
 * - script-src 'self': the built index.html has no inline script (vite-plugin-pwa's injectRegister
 *   is off; client/src/lib/pwa registers the worker from a chunk), and nothing evaluates strings
 *   (zod runs jitless, client/src/lib/csp.ts), so neither 'unsafe-inline' nor 'unsafe-eval'.
 * - style-src 'unsafe-inline': Mantine writes its CSS variables into <style> elements at run time,
 *   and rich text (questions, KaTeX's HTML output, static pages) carries style attributes that
 *   the sanitisers keep to a list of harmless properties. A nonce would not cover attributes and
 *   cannot work with an index.html the service worker serves from its cache.
 * - img-src https: data:: banner images and images in rich text may live on any https host
 *   (the sanitiser upgrades http images to https); data: for inlined small images and raster
 *   images in rich text. No blob:, which nothing makes.
 * - font-src data:: Vite inlines small font files as data URLs.
 * - connect-src, worker-src, manifest-src 'self': the API, the sync stream, the service worker and
 *   the manifest are all on this origin.
 * - object-src, base-uri, frame-ancestors 'none'; forms (and, through default-src, frames and
 *   media) only to this origin.
 * - report-uri always; report-to (with its Reporting-Endpoints header) only over TLS. Chromium
 *   delivers Reporting API reports only to https endpoints, and a policy that names report-to
 *   makes it ignore report-uri (CSP3): on plain http, report-to would silence every report.
 */
const SITE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  `report-uri ${CSP_REPORT_PATH}`,
];

/** One year with subdomains (docs/security.md "Headers, CSP and links"); no `preload`, which is a commitment for the domain's owner. */
const HSTS = 'max-age=31536000; includeSubDomains';

export type HeaderList = readonly (readonly [string, string])[];

/** The site's: the defaults of Hono's secureHeaders (app.ts used to set them on the site alone). */
const SITE_HEADERS: [string, string][] = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  // frame-ancestors 'none' is the rule; this is for browsers that predate it.
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * The API's (OWASP REST Security cheat sheet): JSON is never a document, so an answer opened in a
 * tab or a frame may load and run nothing, is never sniffed into something else, and is not
 * readable by another site's no-cors request. The headers that only matter for a page are left
 * out, as every byte counts on a phone's connection.
 *
 * Cache-Control: the answers are personal (a token, a result, a replica's rows) or cheap to
 * recompute (plans, banners, pages): none is worth the risk of a shared or disk cache keeping the
 * first kind, so every answer is no-store unless its route sets another Cache-Control. The client
 * keeps what it needs offline in its own database, never in HTTP caches.
 */
const API_HEADERS: [string, string][] = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Cache-Control', 'no-store'],
];

/**
 * Uploaded images under /media/ (modules/media): only ever shown through <img>, so, as for the
 * API, a policy that allows nothing (an image opened in a tab, or a file a browser would sniff as
 * something else, can load and run nothing), never sniffed, and not readable by another site's
 * no-cors request. Their Cache-Control (a year, immutable) is set by the route.
 */
const MEDIA_HEADERS: [string, string][] = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
];

/**
 * The build's scripts, stylesheets and fonts under /assets/ (docs/benchmarks.md "bench:bundle"): subresources that a
 * page loads, never documents. A Content-Security-Policy, X-Frame-Options and the other
 * page-only headers on them change nothing (browsers apply those to documents and workers, and
 * the app starts no worker from /assets/: the service worker and its imported scripts are
 * served from the root with the site's set), but each response carried them: ~640 bytes, and a
 * first visit to /login fetches ~60 such files. They keep what does apply to a subresource: never
 * sniffed as another type, not readable by another site's no-cors request, and no referrer on
 * the requests a stylesheet makes (fonts, images). HSTS goes on every response over TLS.
 * Everything else under /assets/ (the home page's SVG illustrations, which a tab could open as
 * a document) keeps the site's set.
 */
const ASSET_HEADERS: [string, string][] = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
];
/** Subresource files of the build that get ASSET_HEADERS (see above). */
const SUBRESOURCE_FILE = /^\/assets\/[^/]+\.(?:js|css|woff2?|ttf)$/;

/**
 * With PAYMENT_PROVIDER=razorpay the Plan page opens Razorpay Checkout: its script, its frame and
 * the calls it makes (Razorpay's published CSP requirements for Checkout). Nothing else changes.
 */
const RAZORPAY_POLICY: Record<string, string> = {
  'script-src': "script-src 'self' https://checkout.razorpay.com",
  'connect-src': "connect-src 'self' https://api.razorpay.com https://lumberjack.razorpay.com",
  'frame-src': 'frame-src https://api.razorpay.com https://checkout.razorpay.com',
};
const withRazorpay = (policy: string[]) => [...policy.map((d) => RAZORPAY_POLICY[d.split(' ')[0]!] ?? d), RAZORPAY_POLICY['frame-src']!];

const site = (tls: boolean, razorpay = false): HeaderList => {
  // upgrade-insecure-requests only where HSTS is sent: on plain http it would send every
  // subresource to an https port that may not exist.
  const base = razorpay ? withRazorpay(SITE_POLICY) : SITE_POLICY;
  const policy = tls ? [...base, `report-to ${REPORT_GROUP}`, 'upgrade-insecure-requests'] : base;
  const list: [string, string][] = [...SITE_HEADERS, ['Content-Security-Policy', policy.join('; ')]];
  if (tls) list.push(['Reporting-Endpoints', `${REPORT_GROUP}="${CSP_REPORT_PATH}"`], ['Strict-Transport-Security', HSTS]);
  return list;
};
const api = (tls: boolean): HeaderList => (tls ? [...API_HEADERS, ['Strict-Transport-Security', HSTS]] : API_HEADERS);
const media = (tls: boolean): HeaderList => (tls ? [...MEDIA_HEADERS, ['Strict-Transport-Security', HSTS]] : MEDIA_HEADERS);
const asset = (tls: boolean): HeaderList => (tls ? [...ASSET_HEADERS, ['Strict-Transport-Security', HSTS]] : ASSET_HEADERS);

const SETS = {
  site: { plain: site(false), tls: site(true) },
  siteRazorpay: { plain: site(false, true), tls: site(true, true) },
  api: { plain: api(false), tls: api(true) },
  media: { plain: media(false), tls: media(true) },
  asset: { plain: asset(false), tls: asset(true) },
};

/** The site's Content-Security-Policy as sent over plain http (for tests and docs). */
export const SITE_CSP = SITE_POLICY.join('; ');

/**
 * Whether a request came over TLS that ends at the proxy in front of us. Asked only when
 * TRUST_PROXY is on (without it, X-Forwarded-Proto is whatever the client wrote): then yes unless
 * the proxy says the request came over plain http. A proxy that sets no X-Forwarded-Proto counts
 * as https, since TRUST_PROXY is the operator's statement that TLS ends there. (A browser ignores
 * HSTS received over http anyway, RFC 6797 §8.1; the check matters for upgrade-insecure-requests.)
 */
export function forwardedOverTls(forwardedProto: string | undefined): boolean {
  if (forwardedProto === undefined) return true;
  // The first value is the hop the browser talked to (as for X-Forwarded-For in lib/http).
  return forwardedProto.split(',')[0]?.trim().toLowerCase() !== 'http';
}

/** The headers for a response to `path` (the request's path, /api/… for the API, /media/… for images, /assets/… for the build's files). */
export function securityHeaders(path: string, tls: boolean, opts: { razorpay?: boolean } = {}): HeaderList {
  const site = opts.razorpay ? SETS.siteRazorpay : SETS.site;
  const set =
    path === '/api' || path.startsWith('/api/') ? SETS.api : path.startsWith('/media/') ? SETS.media : SUBRESOURCE_FILE.test(path) ? SETS.asset : site;
  return tls ? set.tls : set.plain;
}
