/**
 * Response header carrying a renewed bearer token for the same session (docs/security.md "Sessions and logout"). The server
 * sends it when the presented token is more than a day old; the client stores it in place of the
 * token it sent. The old token keeps working until its own expiry: only revoking the session
 * (logout, log out of all devices, a password change elsewhere) ends every token of it at once.
 * Same-origin only, so no CORS `Access-Control-Expose-Headers` is needed.
 */
export const SESSION_TOKEN_HEADER = 'X-Session-Token';
