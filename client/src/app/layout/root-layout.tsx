import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LoadingBar } from '../../components/loading-bar';
import { paths } from '../../config/paths';
import { getTerms } from '../../features/auth/api/get-terms';
import { logoutOnServer } from '../../features/auth/api/logout';
import { type LogoutOptions, setLogoutHandler } from '../../lib/logout-request';
import { clearSession, getSession, rememberRedirect, takeRedirect, updateSession } from '../../lib/session';
import { useSession } from '../../hooks/use-session';
import { setSessionLostHandler } from '../../lib/session-lost';
import { Footer } from './footer';
import classes from './layout.module.css';
import { NavBar } from './nav-bar';
import { PageInteractive } from './page-interactive';
import { RouteErrorBoundary } from './route-error-boundary';
import { useScrollRestoration } from './use-scroll-restoration';
import { useQuestionDialog } from './question-dialog';
import { useReplicaControl } from '../replica-provider';
import type { RootOutletContext } from '../../features/admin/components/admin-layout';

/** The drawer of narrow screens is not part of the first page: it loads on the first burger press. */
const AppDrawer = lazy(() => import('./app-drawer'));
/** The navigation's Create New Question dialog (docs/authoring.md): loaded when first asked for, never on the first page. */
const QuestionEditorDialog = lazy(() => import('./question-editor-dialog'));
/** Accepting the terms' version in force (docs/api.md "Terms"): loaded only when a person has not. */
const TermsGate = lazy(() => import('../../features/auth/components/terms-gate'));
/** Web Push (docs/configuration.md "Push messages (Web Push)"): asked for on the result page, after a submitted test; loaded there only. */
const PushPrompt = lazy(() => import('../../components/push-prompt'));

export function RootLayout() {
  const [drawerOpened, setDrawerOpened] = useState(false);
  // Once opened, the drawer stays mounted so that closing it animates too.
  const [drawerWanted, setDrawerWanted] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const replica = useReplicaControl();
  useScrollRestoration();
  const questionDialog = useQuestionDialog();
  const session = useSession();
  const signedIn = session !== null;
  const sessionId = session?.id;

  // At each start of the app while signed in, ask whether the terms in force are accepted: an
  // installation that changed them asks everyone again before going on (docs/api.md "Terms").
  // Offline, the session's last answer stands until the next start online.
  useEffect(() => {
    if (!sessionId || !navigator.onLine) return;
    let current = true;
    getTerms()
      .then((r) => {
        const s = getSession();
        if (!current || s?.id !== sessionId || typeof r.version !== 'string' || typeof r.accepted !== 'boolean') return;
        if (s.terms?.version !== r.version || s.terms.accepted !== r.accepted) updateSession({ terms: { version: r.version, accepted: r.accepted } });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [sessionId]);

  // The navigation bar is hidden on any URL containing 'admin'.
  const hideBar = location.pathname.includes('admin');

  useEffect(() => {
    // A refused token (or a 403 on an auth call) clears the session, remembers where the user
    // was and goes to /login with the server's message (docs/security.md "Sessions and logout").
    setSessionLostHandler((msg) => {
      clearSession();
      rememberRedirect(window.location.pathname + window.location.search);
      void navigate(`${paths.login}?error=${encodeURIComponent(msg)}`);
    });
  }, [navigate]);

  // A new address closes the drawer (adjusting state while rendering, as React advises).
  const [drawerPath, setDrawerPath] = useState(location.pathname);
  if (drawerPath !== location.pathname) {
    setDrawerPath(location.pathname);
    setDrawerOpened(false);
  }

  const toggleDrawer = () => {
    setDrawerWanted(true);
    setDrawerOpened((o) => !o);
  };
  const closeDrawer = () => setDrawerOpened(false);
  // Leave first, then forget the session: the session goes only once /login is on screen. A
  // guarded page that saw the session vanish would send the user to /login with the permission
  // message (and remember itself as the next login's destination, on a shared phone someone
  // else's). Navigation is a transition that waits for the login page's chunk, so "after a tick"
  // is not enough: the effect below runs when the new location has been committed.
  // Replication stops and the database closes (or is erased) before the session goes.
  const pendingLogout = useRef<{ erase: boolean } | null>(null);
  const finishLogout = useCallback(() => {
    const pending = pendingLogout.current;
    if (!pending) return;
    pendingLogout.current = null;
    // A request in flight must not hold the logout for long.
    const timeout = new Promise((resolve) => setTimeout(resolve, 3000));
    void Promise.race([replica.closeForLogout({ erase: pending.erase }), timeout])
      .catch(() => undefined)
      .then(() => {
        clearSession();
        takeRedirect();
      });
  }, [replica]);
  // Keyed by the location's key too: a logout clicked while a navigation away from /login was
  // still pending (just after a login) navigates to /login again, the same pathname.
  useEffect(() => {
    if (location.pathname === paths.login) finishLogout();
  }, [location.key, location.pathname, finishLogout]);
  const logout = ({ erase = false, endedOnServer = false }: LogoutOptions = {}) => {
    // The server ends the session first (docs/security.md "Sessions and logout"), without holding the local logout: offline,
    // the device still forgets the session at once.
    const token = getSession()?.token;
    if (token && !endedOnServer) logoutOnServer(token);
    pendingLogout.current = { erase };
    // The address bar moves at once on a navigation; the rendered location follows when the next
    // page's chunk is in. Right after a login both can differ (the bar already on the home page):
    // only when both are on /login is there nowhere to go.
    if (location.pathname === paths.login && window.location.pathname === paths.login) {
      finishLogout();
      return;
    }
    // Marked, so that the login page does not send on a session that is about to go.
    void navigate(paths.login, { state: { loggingOut: true } });
    // Should the login page never arrive (its chunk failing to load), the session goes anyway.
    setTimeout(finishLogout, 5000);
  };

  // Pages (the profile's "log out of all devices") log out the same way as the navigation bar.
  useEffect(() => {
    setLogoutHandler(logout);
    return () => setLogoutHandler(null);
  });

  return (
    <>
      <LoadingBar />
      <header className={classes.header} data-collapsed={hideBar || undefined}>
        <NavBar drawerOpened={drawerOpened} onBurger={toggleDrawer} onLogout={logout} />
      </header>
      {drawerWanted && (
        <Suspense fallback={null}>
          <AppDrawer opened={drawerOpened} onClose={closeDrawer} onLogout={logout} />
        </Suspense>
      )}
      {signedIn && location.pathname.startsWith(`${paths.examResult}/`) && (
        <Suspense fallback={null}>
          <PushPrompt />
        </Suspense>
      )}
      {session?.terms?.accepted === false && (
        <Suspense fallback={null}>
          <TermsGate version={session.terms.version} />
        </Suspense>
      )}
      {questionDialog.requested && (
        <Suspense fallback={null}>
          <QuestionEditorDialog opened={questionDialog.open} />
        </Suspense>
      )}
      <main className={classes.main} data-collapsed={hideBar || undefined}>
        {/* At least a screen tall: the footer starts below the fold, so a page that arrives late does not push it (layout shift). */}
        <div className={classes.page}>
          <RouteErrorBoundary resetKey={location.pathname}>
            <Suspense
              fallback={
                <div className={classes.pageLoading}>
                  <span className={classes.spinner} role="progressbar" aria-label={t('actions.loading')} />
                </div>
              }
            >
              <Outlet context={{ logout } satisfies RootOutletContext} />
              <PageInteractive />
            </Suspense>
          </RouteErrorBoundary>
        </div>
        <Footer />
      </main>
    </>
  );
}
