import type { Config } from '../env';

/*
 * Every absolute link the server builds (the address the payment provider sends the browser back
 * to, and any other) starts with the configured site origin, PUBLIC_URL (env.ts; the listening
 * address outside production), never with the request's Host header or X-Forwarded-Host: a
 * request can name any host, and a link built from it would send the buyer, or the provider,
 * wherever the request said (docs/security.md, "Production that cannot be fooled").
 */

/** The site's origin, e.g. `https://parikshamitra.example`. */
export function siteOrigin(config: Pick<Config, 'PUBLIC_URL'>): string {
  return config.PUBLIC_URL;
}

/** An absolute address on this site for a path (with its query), e.g. `/payment-confirmation?…`. */
export function siteUrl(config: Pick<Config, 'PUBLIC_URL'>, pathAndQuery: string): string {
  if (!pathAndQuery.startsWith('/') || pathAndQuery.startsWith('//') || pathAndQuery.startsWith('/\\')) {
    throw new Error(`siteUrl takes a path of this site, not ${JSON.stringify(pathAndQuery)}`);
  }
  return `${siteOrigin(config)}${pathAndQuery}`;
}
