import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, NavLink as RouterNavLink, Outlet, useLocation, useOutletContext } from 'react-router';
import { LanguageSelect } from '@/components/language-select';
import { SyncStatusIndicator } from '@/components/sync-status';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { permissionsOf } from '@/lib/session';
import { ADMIN_MENU, adminPath, mayOpen } from '../lib/menu';
import { mayOpen as mayOpenAccess, ROUTE_ACCESS } from '@/config/route-access';

/** What the root layout hands its pages (react-router outlet context). */
export type RootOutletContext = { logout: (opts?: { erase?: boolean }) => void };

/** The admin menu switches layout at a 600px breakpoint. */
export const ADMIN_BREAKPOINT_PX = 600;

/**
 * The admin area's frame: the site's navigation bar is hidden on admin
 * addresses (root layout), so this header carries the way back to the site, the language, the
 * sync status and logout. At 600 px and wider the side menu is always there; below, a burger
 * opens it over the page.
 */
export default function AdminLayout() {
  const { t } = useTranslation('admin');
  const session = useSession();
  const root = useOutletContext<RootOutletContext | undefined>();
  const [opened, { toggle, close }] = useDisclosure(false);
  const wide = useMediaQuery(`(min-width: ${ADMIN_BREAKPOINT_PX}px)`, true);
  const location = useLocation();
  const perms = permissionsOf(session);
  const entries = ADMIN_MENU.filter((e) => mayOpen(e, perms));

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: ADMIN_BREAKPOINT_PX, collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            {!wide && (
              <Burger opened={opened} onClick={toggle} size="sm" aria-label={opened ? t('menu.close') : t('menu.open')} />
            )}
            <Text fw={700} component={Link} to={adminPath('')} c="indigo.7" style={{ textDecoration: 'none' }} truncate>
              {t('title')}
            </Text>
            {session && root && <SyncStatusIndicator onLogoutErase={() => root.logout({ erase: true })} />}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {wide && (
              <Button component={Link} to={paths.home} variant="subtle" size="compact-sm">
                {t('backToSite')}
              </Button>
            )}
            <LanguageSelect />
            {root && (
              <Button variant="light" size="compact-sm" onClick={() => root.logout()}>
                {t('logout')}
              </Button>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('menu.label')}>
        <AppShell.Section grow component={ScrollArea}>
            {entries.map((e) => (
              <NavLink
                key={e.key}
                component={RouterNavLink}
                to={adminPath(e.path)}
                end
                label={t(`menu.${e.key}`)}
                active={location.pathname === adminPath(e.path) || (e.path !== '' && location.pathname.startsWith(`${adminPath(e.path)}/`))}
                onClick={close}
              />
            ))}
            {mayOpenAccess(ROUTE_ACCESS.transactionReport, perms) && (
              <NavLink component={RouterNavLink} to={paths.transactionReport} label={t('menu.transactionReport')} onClick={close} />
            )}
            {mayOpenAccess(ROUTE_ACCESS.globalEarningReport, perms) && (
              <NavLink component={RouterNavLink} to={paths.globalEarningReport} label={t('menu.globalEarningReport')} onClick={close} />
            )}
            {!wide && <NavLink component={RouterNavLink} to={paths.home} label={t('backToSite')} onClick={close} />}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet context={root} />
      </AppShell.Main>
    </AppShell>
  );
}
