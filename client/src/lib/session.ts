import type { LoginResponse, TermsState } from '@pm/protocol/auth';
import { paths } from '../config/paths';

/**
 * The signed-in session (the login answer, docs/api.md): kept in sessionStorage,
 * and with remember-me also in localStorage.
 */
export type Session = {
  token: string;
  pushToken: string | null;
  name: string;
  mobile: string;
  email: string | null;
  /** Role name. */
  role: string;
  /** Permission names joined by commas, as the spec stores them. */
  permissions: string;
  loggedIn: true;
  id: string;
  iprr: number;
  dq: number;
  aw: number;
  curr_orbit: number;
  tac: number;
  taw: number;
  /**
   * The terms' version in force and whether this person accepted it, as the server last said (login,
   * or the check at app start): not accepted, the app asks before going on (features/auth
   * terms-gate). Absent in sessions stored before it existed: the check at start fills it in.
   */
  terms?: TermsState;
};

const KEY = 'session';
const REDIRECT_KEY = 'redirectUrl';

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null = read();

function read(): Session | null {
  if (typeof window === 'undefined') return null;
  const raw = sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Session;
    return s && typeof s.token === 'string' && s.loggedIn ? s : null;
  } catch {
    return null;
  }
}

function emit() {
  for (const l of listeners) l();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSession(): Session | null {
  return current;
}

export function sessionFromLogin(r: LoginResponse): Session {
  return {
    token: r.token,
    pushToken: null,
    name: r.name,
    mobile: r.mobile,
    email: r.email,
    role: r.r.name,
    permissions: r.permissions.map((p) => p.permission).join(','),
    loggedIn: true,
    id: r.id,
    iprr: r.iprr,
    dq: r.dq,
    aw: r.aw,
    curr_orbit: r.curr_orbit,
    tac: r.tac,
    taw: r.taw,
    terms: r.terms,
  };
}

export function setSession(session: Session, remember: boolean): void {
  const raw = JSON.stringify(session);
  sessionStorage.setItem(KEY, raw);
  if (remember) localStorage.setItem(KEY, raw);
  else localStorage.removeItem(KEY);
  current = session;
  emit();
}

/** Replaces the token after a password change, keeping where the session is stored. */
export function updateSession(patch: Partial<Session>): void {
  if (!current) return;
  const next = { ...current, ...patch };
  const remembered = localStorage.getItem(KEY) !== null;
  setSession(next, remembered);
}

/**
 * Stores a token the server renewed (docs/security.md "Sessions and logout": a response to a token more than a day old
 * carries a fresh one for the same session). Only if `sent` is still the stored token: a response
 * that arrives after a logout, a new login or a newer renewal changes nothing. The old token stays
 * valid until its own expiry, so requests still in flight with it do not fail.
 */
export function renewToken(sent: string, fresh: string): void {
  if (!current || current.token !== sent || fresh === sent) return;
  updateSession({ token: fresh });
}

/** Logout and a refused token clear both stores. */
export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  // The session's SMS key goes with it (lib/sms-answers.ts, docs/sms.md "The key").
  localStorage.removeItem('smsAnswerKey');
  current = null;
  emit();
}

export function permissionsOf(session: Session | null): Set<string> {
  return new Set(session?.permissions ? session.permissions.split(',') : []);
}

export function hasPermissions(session: Session | null, needed: readonly string[]): boolean {
  if (!session) return false;
  const have = permissionsOf(session);
  return needed.every((p) => have.has(p));
}

/** Where to go after login: the page the person was going to when sent to login. */
export function rememberRedirect(url: string): void {
  sessionStorage.setItem(REDIRECT_KEY, url);
}

/**
 * `url` as a path of this site (path, query and hash), or null: anything that leads elsewhere
 * (`//host`, `/\host`, `https:`, `javascript:`) or back to a login address.
 */
export function sameSitePath(url: string | null, origin = window.location.origin): string | null {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return null;
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return null;
  }
  if (parsed.origin !== origin) return null;
  const path = parsed.pathname + parsed.search + parsed.hash;
  return path.includes('login') ? null : path;
}

/**
 * Where a login or signup goes on (docs/api.md "Where people land"): the remembered page, when it
 * is a path of this site, else Exams. Read once: the next login starts afresh.
 */
export function takeRedirect(): string {
  const url = sessionStorage.getItem(REDIRECT_KEY);
  sessionStorage.removeItem(REDIRECT_KEY);
  return sameSitePath(url) ?? paths.examList;
}

// Another tab logging in or out changes localStorage; follow it.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) {
      current = read();
      emit();
    }
  });
}
