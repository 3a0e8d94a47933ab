import { paths } from '@/config/paths';

/*
 * The addresses of one donation, each with its token (`t`) when there is one: the token opens
 * the donation to whoever holds it, the donor who started it as a guest and the receipt e-mail's
 * reader (docs/charity.md "API", the donation's token). A signed-in donor needs none.
 */

const withToken = (path: string, token: string | null | undefined) => (token ? `${path}${path.includes('?') ? '&' : '?'}t=${encodeURIComponent(token)}` : path);

/** Where the provider sends the donor back (POST /donation/:orderId/pay's redirectUrl, on this site's origin). */
export function donationConfirmationPath(orderId: string, token?: string | null): string {
  return withToken(`${paths.donationConfirmation}?${new URLSearchParams({ orderId }).toString()}`, token);
}

/** A donation's own page, status and printable receipt: the same address as the receipt e-mail's link. */
export function donationPath(orderId: string, token?: string | null): string {
  return withToken(`${paths.donations}/${encodeURIComponent(orderId)}`, token);
}

/*
 * The token is also kept for the tab's life, by order: an address that lost it (a provider that
 * sends back to the order's own redirect, a link shared without it) still opens the donation in
 * the tab that started it.
 */
const KEY = (orderId: string) => `donation-token:${orderId}`;

export function rememberDonationToken(orderId: string, token: string): void {
  try {
    sessionStorage.setItem(KEY(orderId), token);
  } catch {
    // Storage refused (private mode): the address carries the token anyway.
  }
}

/** The token the address gives, else the one this tab kept for the order. */
export function donationTokenOf(orderId: string, fromAddress: string | null): string | null {
  if (fromAddress) return fromAddress;
  try {
    return sessionStorage.getItem(KEY(orderId));
  } catch {
    return null;
  }
}
