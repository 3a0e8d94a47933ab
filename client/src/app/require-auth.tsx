import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../hooks/use-session';
import { hasPermissions, permissionsOf, rememberRedirect } from '../lib/session';

/**
 * A route guard (spec §6): passes when the user is logged in and holds every listed permission
 * (an empty list means only being logged in); otherwise remembers the address and goes to
 * /login with 'Insufficient permission. Please login as authorized user.'
 */
export function RequireAuth({
  permissions = [],
  anyOf,
  children,
}: {
  permissions?: readonly string[];
  /** Also needs at least one of these (spec §6: Brands and the dashboard read their list as "any of"). */
  anyOf?: readonly string[];
  children: ReactNode;
}) {
  const session = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  // Signed in when the page opened and signed out now is a logout (or a lost session, whose
  // handler remembers the address and shows the server's message): plain /login, nothing
  // remembered, so the next person to log in on this device is not sent here.
  const [signedInAtOpen] = useState(() => session !== null);
  const anyOk = !anyOf || anyOf.some((p) => permissionsOf(session).has(p));
  if (hasPermissions(session, permissions) && anyOk) return <>{children}</>;
  if (!session && signedInAtOpen) return <Navigate to={paths.login} replace />;
  rememberRedirect(location.pathname + location.search);
  const error = encodeURIComponent(t('errors.insufficientPermission'));
  return <Navigate to={`/login?error=${error}`} replace />;
}
