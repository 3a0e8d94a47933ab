import { useSyncExternalStore } from 'react';
import { getSession, type Session, subscribeSession } from '../lib/session';

/** The signed-in session, re-rendering on login and logout (also in other tabs). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}
