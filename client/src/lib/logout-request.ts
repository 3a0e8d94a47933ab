/**
 * Logging out is the shell's job (app/layout/root-layout.tsx: end the session on the server, leave
 * the page, close the replica, clear the session); a page that needs it asks here. Kept apart, like
 * lib/session-lost, so that features do not import the app layer.
 */
export type LogoutOptions = {
  /** Also erase this device's copy of the person's data. */
  erase?: boolean;
  /** The server has already ended the session (log out of all devices): do not ask it again. */
  endedOnServer?: boolean;
};
type LogoutHandler = (opts?: LogoutOptions) => void;
let onLogout: LogoutHandler | null = null;

export function setLogoutHandler(h: LogoutHandler | null): void {
  onLogout = h;
}

/** Logs this device out as the navigation bar's Logout does; false if no shell is mounted. */
export function requestLogout(opts?: LogoutOptions): boolean {
  if (!onLogout) return false;
  onLogout(opts);
  return true;
}
