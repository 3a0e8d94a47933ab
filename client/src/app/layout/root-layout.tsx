import { AppShell, Center, Loader } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router';
import { LoadingBar } from '../../components/loading-bar';
import { paths } from '../../config/paths';
import { setSessionLostHandler } from '../../lib/api-client';
import { clearSession, rememberRedirect } from '../../lib/session';
import { AppDrawer } from './app-drawer';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

export type RouteHandle = { title?: string };

/** Page titles follow the route's `handle.title` (spec §2 Global layout). */
function useRouteTitle() {
  const matches = useMatches();
  const { t, i18n } = useTranslation();
  const key = [...matches].reverse().map((m) => (m.handle as RouteHandle | undefined)?.title).find(Boolean);
  useEffect(() => {
    const app = t('appName');
    document.title = key ? `${t(key as never) as string} | ${app}` : app;
  }, [key, t, i18n.language]);
}

export function RootLayout() {
  const [drawerOpened, drawer] = useDisclosure(false);
  const location = useLocation();
  const navigate = useNavigate();
  useRouteTitle();

  // The navigation bar is hidden on any URL containing 'admin' (spec §2).
  const hideBar = location.pathname.includes('admin');

  useEffect(() => {
    // A refused token (or a 403 on an auth call) clears the session, remembers where the user
    // was and goes to /login with the server's message (spec §4 Session, §8).
    setSessionLostHandler((msg) => {
      clearSession();
      rememberRedirect(window.location.pathname + window.location.search);
      void navigate(`${paths.login}?error=${encodeURIComponent(msg)}`);
    });
  }, [navigate]);

  useEffect(() => drawer.close(), [location.pathname]); // eslint-disable-line react-hooks/exhaustive-deps

  const logout = () => {
    clearSession();
    void navigate(paths.login);
  };

  return (
    <AppShell header={{ height: 60, collapsed: hideBar }} padding={0}>
      <LoadingBar />
      <AppShell.Header>
        <NavBar drawerOpened={drawerOpened} onBurger={drawer.toggle} onLogout={logout} />
      </AppShell.Header>
      <AppDrawer opened={drawerOpened} onClose={drawer.close} onLogout={logout} />
      <AppShell.Main>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
        <Footer />
      </AppShell.Main>
      <ScrollRestoration />
    </AppShell>
  );
}
