/*
 * Addresses that people type and other people's browsers follow (banner links and images,
 * docs/security.md "Headers, CSP and links") are judged by parsing them as a browser does, not by a pattern: `/\evil.example` looks
 * like a site path to a regular expression, but a browser reads the backslash as a slash and
 * goes to evil.example.
 */

/** The WHATWG URL parser of browsers and Node (sync-protocol compiles without DOM or Node types). */
declare const URL: new (url: string, base?: string) => { origin: string; protocol: string; hostname: string; username: string; password: string; pathname: string };

/** Any origin works as the base of a relative address; .invalid can never be a real host (RFC 2606). */
const SITE = 'https://site.invalid';
const SITE_ORIGIN = 'https://site.invalid';

function parse(value: string, base?: string) {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/**
 * The parser drops tabs and newlines anywhere and spaces and control characters at either end
 * (`/\t/evil.example` is `//evil.example` to it): an address must not contain any, so that what
 * is stored is what the browser follows.
 */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/;

/**
 * A path of this site (`/plan`, `/exam-list?tag=x`): starts with `/`, and resolved against the
 * page it is on, it stays on the page's origin. The origin does not matter: only a scheme or an
 * authority (`//`, `/\`, `\\`) can change the host, and neither depends on the base. A path
 * that resolves to one starting with `//` (`/.//evil.example`) is refused too: it stays here, but
 * any code that later takes `location.pathname` as an address would leave the site.
 */
export function isSitePath(value: string): boolean {
  if (!value.startsWith('/') || HIDDEN.test(value)) return false;
  const url = parse(value, SITE);
  return url !== null && url.origin === SITE_ORIGIN && !url.pathname.startsWith('//');
}

/**
 * An https address of another site: absolute, https, a host, and no user name or password (in
 * `https://pariksha.example@evil.example` the host is evil.example).
 */
export function isHttpsAddress(value: string): boolean {
  if (HIDDEN.test(value)) return false;
  const url = parse(value);
  return url !== null && url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}
