/**
 * What a lost session does (clear it, remember the URL, go to /login) is the app's decision;
 * the fetch wrapper only reports it. Kept apart from lib/api-client so that the shell can
 * register the handler without loading the fetch wrapper on the first page (bundle budget).
 */
type SessionLostHandler = (msg: string) => void;
let onSessionLost: SessionLostHandler = () => undefined;

export function setSessionLostHandler(h: SessionLostHandler): void {
  onSessionLost = h;
}

export function reportSessionLost(msg: string): void {
  onSessionLost(msg);
}
