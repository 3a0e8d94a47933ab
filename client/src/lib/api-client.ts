import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import i18n from './i18n';
import { startLoading } from './loading';
import { notifyError } from './notify';
import { translateServerMessage } from './server-messages';
import { getSession, renewToken } from './session';
import { reportSessionLost } from './session-lost';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly code?: string,
    /** The error answer's whole body, for what it carries beside `msg` (a 409's current question). */
    readonly body?: unknown,
  ) {
    super(msg);
  }
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Basic credentials (login, reset with code, OTP sign-in); no bearer token then. */
  basic?: { user: string; pass: string };
  /** Send no bearer token. */
  skipAuth?: boolean;
  /** Background requests do not show the loading bar. */
  background?: boolean;
  /** The caller shows the error itself (for example in a form's alert list). */
  silent?: boolean;
  /** Answers of these statuses the caller shows itself (the question editor's 409, both versions side by side). */
  silentFor?: readonly number[];
  /** An auth call: a 403 sends the user to /login with the server message. */
  authCall?: boolean;
};

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * The one fetch wrapper (CONVENTIONS rule 5): bearer token, loading bar, and the error handling
 * of the server. It throws an ApiError after handling, so callers can react too.
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const url = new URL(`/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  // A Blob (an uploaded image) goes as its bytes; anything else as JSON.
  const isBlob = typeof Blob !== 'undefined' && opts.body instanceof Blob;
  if (opts.body !== undefined) headers['content-type'] = isBlob ? (opts.body as Blob).type || 'application/octet-stream' : 'application/json';
  let sentToken: string | undefined;
  if (opts.basic) headers.authorization = `Basic ${toBase64(`${opts.basic.user}:${opts.basic.pass}`)}`;
  else if (!opts.skipAuth) {
    sentToken = getSession()?.token;
    if (sentToken) headers.authorization = `Bearer ${sentToken}`;
  }
  const stop = opts.background ? () => undefined : startLoading();
  let res: Response;
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : isBlob ? (opts.body as Blob) : JSON.stringify(opts.body),
    });
  } catch {
    stop();
    const msg = i18n.t('errors.network');
    if (!opts.silent) notifyError(msg);
    throw new ApiError(0, msg, 'NETWORK');
  }
  stop();
  // A token more than a day old comes back renewed (docs/security.md "Sessions and logout"), on any answer but a 401.
  const renewed = res.headers.get(SESSION_TOKEN_HEADER);
  if (renewed && sentToken) renewToken(sentToken, renewed);
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (res.ok) return data as T;

  const raw = (data as { msg?: string; error?: { msg?: string; raw?: { msg?: string } } } | null) ?? {};
  const serverMsg = raw.msg ?? raw.error?.msg ?? raw.error?.raw?.msg ?? '';
  // The server-message translations are not part of the first page; load them on the first error.
  if (serverMsg) await i18n.loadNamespaces('messages').catch(() => undefined);
  const msg = serverMsg ? translateServerMessage(serverMsg) : i18n.t('errors.someError');
  const code = (data as { code?: string } | null)?.code;
  const hadToken = Boolean(headers.authorization?.startsWith('Bearer'));

  if (res.status === 401 && hadToken) {
    // The token was refused (expired, password changed elsewhere): sign in again.
    reportSessionLost(msg);
  } else if (res.status === 403) {
    if (opts.authCall) reportSessionLost(msg);
    else if (!opts.silent) notifyError(i18n.t('errors.permissionDenied'));
  } else if (res.status >= 500) {
    if (!opts.silent) notifyError(msg, i18n.t('errors.server'));
  } else if (!opts.silent && !opts.silentFor?.includes(res.status)) {
    notifyError(msg);
  }
  throw new ApiError(res.status, msg, code, data);
}
