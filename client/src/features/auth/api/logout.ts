/**
 * POST /api/UserLogin/logout: ends this device's session on the server (docs/security.md "Sessions and logout"), so that a
 * copy of its token stops working too. A plain fetch, not the api() wrapper: the shell calls it
 * on every logout (the wrapper stays out of the first page), and a refused token (already ended
 * elsewhere) must not send anyone to /login with an error while they are logging out.
 *
 * The local logout never waits for it. Offline, the request fails; it is tried once more when
 * the browser comes back online while this page is open. The token is not kept anywhere for a
 * later try: on a shared phone the next person could take it from storage. Such a session then
 * ends with its token's expiry (30 days at most), or at once with "Log out of all devices" or a
 * password change from any device.
 */
export function logoutOnServer(token: string): void {
  const send = () =>
    fetch(new URL('/api/UserLogin/logout', window.location.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      // Completes even if the page is closed or reloaded right after the click.
      keepalive: true,
      cache: 'no-store',
    });
  send().catch(() => {
    window.addEventListener('online', () => void send().catch(() => undefined), { once: true });
  });
}
