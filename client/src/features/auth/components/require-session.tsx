import { type ReactNode, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { rememberRedirect } from '@/lib/session';

/**
 * Login-required pages of this feature (reset-password, profile). Signed out, the address
 * is remembered and the user goes to /login, and comes back here after logging in.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  // Signed in when the page opened and signed out now means a logout (which should not bring the
  // next login back here) or a lost session (whose handler has remembered the address already).
  const [signedInAtOpen] = useState(() => session !== null);
  if (session) return <>{children}</>;
  if (!signedInAtOpen) rememberRedirect(location.pathname + location.search);
  return <Navigate to={paths.login} replace />;
}
