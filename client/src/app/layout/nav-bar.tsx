import { Burger, Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { LanguageSelect } from '../../components/language-select';
import { paths } from '../../config/paths';
import { useSession } from '../../hooks/use-session';
import classes from './layout.module.css';
import { navModel } from './nav-model';

/** The navigation bar (spec §2). Below the `sm` breakpoint a burger opens the drawer instead. */
export function NavBar({ drawerOpened, onBurger, onLogout }: { drawerOpened: boolean; onBurger: () => void; onLogout: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const { main, questions, reports } = navModel(session);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap">
        <Burger opened={drawerOpened} onClick={onBurger} hiddenFrom="sm" size="sm" aria-label={drawerOpened ? t('nav.closeMenu') : t('nav.openMenu')} />
        <Text component={Link} to={paths.home} fw={700} size="lg" className={classes.brand}>
          {t('appName')}
        </Text>
      </Group>
      <Group gap={4} visibleFrom="sm" wrap="nowrap" component="nav" aria-label={t('nav.mainNavigation')}>
        {main.slice(0, 2).map((item) => (
          <NavLink key={item.key} to={item.to} end className={classes.link}>
            {t(item.label)}
          </NavLink>
        ))}
        {questions.length > 0 && (
          <Menu trigger="click-hover" position="bottom-start" withinPortal>
            <Menu.Target>
              <Button variant="subtle" rightSection={<IconChevronDown size={14} />} className={classes.menuButton}>
                {t('nav.questions')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {questions.map((item) => (
                <Menu.Item key={item.key} component={Link} to={item.to}>
                  {t(item.label)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
        {main.slice(2).map((item) => (
          <NavLink key={item.key} to={item.to} className={classes.link}>
            {t(item.label)}
          </NavLink>
        ))}
        {reports.length > 0 && (
          <Menu trigger="click-hover" position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" rightSection={<IconChevronDown size={14} />} className={classes.menuButton}>
                {t('nav.reports')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {reports.map((item) => (
                <Menu.Item key={item.key} component={Link} to={item.to}>
                  {t(item.label)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap" visibleFrom="sm">
        <LanguageSelect />
        {session ? (
          <>
            <Button variant="subtle" component={Link} to={paths.profile}>
              {t('nav.profile')}
            </Button>
            <Button variant="light" onClick={onLogout}>
              {t('nav.logout')}
            </Button>
          </>
        ) : (
          <Button component={Link} to={paths.login}>
            {t('nav.login')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
