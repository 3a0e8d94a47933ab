import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths';
import { mayOpen, type RouteAccess } from '../config/route-access';
import { useSession } from '../hooks/use-session';
import { permissionsOf, rememberRedirect } from '../lib/session';
import NoAccessPage from './no-access-page';

/**
 * A route guard over config/route-access, the table the menus follow too:
 * - signed in with the permissions: the screen;
 * - signed in without them: "You do not have access" in place, with a way back (not the login
 *   form: they are not logged out);
 * - signed out: the address is remembered and /login says 'Insufficient permission. Please
 *   login as authorized user.'
 */
export function RequireAuth({ access = {}, children }: { access?: RouteAccess; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  // Signed in when the page opened and signed out now is a logout (or a lost session, whose
  // handler remembers the address and shows the server's message): plain /login, nothing
  // remembered, so the next person to log in on this device is not sent here.
  const [signedInAtOpen] = useState(() => session !== null);
  if (session && mayOpen(access, permissionsOf(session))) return <>{children}</>;
  if (session) return <NoAccessPage />;
  if (signedInAtOpen) return <Navigate to={paths.login} replace />;
  rememberRedirect(location.pathname + location.search);
  const error = encodeURIComponent(t('errors.insufficientPermission'));
  return <Navigate to={`${paths.login}?error=${error}`} replace />;
}


