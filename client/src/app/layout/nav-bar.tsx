import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { LanguageSelect } from '../../components/language-select';
import { SyncStatusIndicator } from '../../components/sync-status';
import { paths } from '../../config/paths';
import { useSession } from '../../hooks/use-session';
import classes from './layout.module.css';
import { type NavLinkItem, navModel } from './nav-model';

const NavMenu = lazy(() => import('./nav-menu'));

/** A drop-down menu of signed-in users, loaded on demand; its label holds the place meanwhile. */
function LazyNavMenu({ label, items, position }: { label: 'nav.questions' | 'nav.reports'; items: NavLinkItem[]; position: 'bottom-start' | 'bottom-end' }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<span className={classes.link}>{t(label)}</span>}>
      <NavMenu label={label} items={items} position={position} />
    </Suspense>
  );
}

/**
 * The navigation bar. Below the `sm` breakpoint a burger opens the drawer instead.
 * Plain elements styled like Mantine's (layout.module.css): the bar is on every first page, and
 * Mantine's Button, Burger and Input would cost ~10 kB gzip there (bundle budget).
 */
export function NavBar({
  drawerOpened,
  onBurger,
  onLogout,
}: {
  drawerOpened: boolean;
  onBurger: () => void;
  onLogout: (opts?: { erase?: boolean }) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const { main, questions, reports } = navModel(session);

  return (
    <div className={classes.bar}>
      <div className={classes.group}>
        <button
          type="button"
          className={`${classes.burger} ${classes.hiddenFromSm}`}
          onClick={onBurger}
          aria-label={drawerOpened ? t('nav.closeMenu') : t('nav.openMenu')}
          aria-expanded={drawerOpened}
        >
          <span className={classes.burgerLines} data-opened={drawerOpened || undefined} />
        </button>
        <Link to={paths.home} className={`${classes.brand} ${classes.brandLink}`}>
          {t('appName')}
        </Link>
        {session && <SyncStatusIndicator onLogoutErase={() => onLogout({ erase: true })} />}
      </div>
      <nav className={`${classes.navLinks} ${classes.visibleFromSm}`} aria-label={t('nav.mainNavigation')}>
        {main.slice(0, 2).map((item) => (
          <NavLink key={item.key} to={item.to} end className={classes.link}>
            {t(item.label)}
          </NavLink>
        ))}
        {questions.length > 0 && <LazyNavMenu label="nav.questions" items={questions} position="bottom-start" />}
        {main.slice(2).map((item) => (
          <NavLink key={item.key} to={item.to} className={classes.link}>
            {t(item.label)}
          </NavLink>
        ))}
        {reports.length > 0 && <LazyNavMenu label="nav.reports" items={reports} position="bottom-end" />}
      </nav>
      <div className={`${classes.group} ${classes.visibleFromSm}`}>
        <LanguageSelect />
        {session ? (
          <>
            <Link to={paths.profile} className={classes.button} data-variant="subtle">
              {t('nav.profile')}
            </Link>
            <button type="button" className={classes.button} data-variant="light" onClick={() => onLogout()}>
              {t('nav.logout')}
            </button>
          </>
        ) : (
          <Link to={paths.login} className={classes.button}>
            {t('nav.login')}
          </Link>
        )}
      </div>
    </div>
  );
}
