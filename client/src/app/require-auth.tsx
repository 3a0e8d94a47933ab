import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../hooks/use-session';
import { hasPermissions, rememberRedirect } from '../lib/session';

/**
 * A route guard (spec §6): passes when the user is logged in and holds every listed permission
 * (an empty list means only being logged in); otherwise remembers the address and goes to
 * /login with 'Insufficient permission. Please login as authorized user.'
 */
export function RequireAuth({ permissions = [], children }: { permissions?: readonly string[]; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const { t } = useTranslation();
  if (hasPermissions(session, permissions)) return <>{children}</>;
  rememberRedirect(location.pathname + location.search);
  const error = encodeURIComponent(t('errors.insufficientPermission'));
  return <Navigate to={`/login?error=${error}`} replace />;
}
