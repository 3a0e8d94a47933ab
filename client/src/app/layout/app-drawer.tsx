import { Button, Divider, Drawer, NavLink as MantineNavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { LanguageSelect } from '../../components/language-select';
import { APP_VERSION, paths } from '../../config/paths';
import { useInstallPrompt } from '../../hooks/use-install-prompt';
import { useSession } from '../../hooks/use-session';
import { type NavLinkItem, navModel } from './nav-model';
import { CREATE_QUESTION_KEY, onCreateQuestionClick } from './question-dialog';

/**
 * The slide-out drawer of narrow screens: the navigation items, Install app when the
 * browser offers it, and the version. 200 ms animation. A lazy chunk: the
 * root layout loads it on the first burger press.
 */
export default function AppDrawer({ opened, onClose, onLogout }: { opened: boolean; onClose: () => void; onLogout: () => void }) {
  const { t } = useTranslation();
  // Loaded by the press that opens it: mount closed first, so that the opening animates.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setMounted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const session = useSession();
  const location = useLocation();
  const install = useInstallPrompt();
  const { main, questions, reports } = navModel(session);

  const link = (item: NavLinkItem) => (
    <MantineNavLink
      key={item.key}
      component={Link}
      to={item.to}
      label={t(item.label)}
      active={location.pathname === item.to}
      onClick={(e: React.MouseEvent) => {
        // Create New Question opens the editor in a dialog.
        if (item.key === CREATE_QUESTION_KEY) onCreateQuestionClick(e, session);
        onClose();
      }}
    />
  );

  return (
    <Drawer
      opened={opened && mounted}
      onClose={onClose}
      size={280}
      padding="md"
      title={t('appName')}
      transitionProps={{ duration: 200 }}
      closeButtonProps={{ 'aria-label': t('nav.closeMenu') }}
      hiddenFrom="sm"
      data-testid="app-drawer"
    >
      <ScrollArea h="calc(100dvh - 80px)">
        <Stack gap={4} component="nav" aria-label={t('nav.mainNavigation')}>
          {main.slice(0, 2).map(link)}
          {questions.length > 0 && (
            <MantineNavLink label={t('nav.questions')} defaultOpened={false} childrenOffset={16}>
              {questions.map(link)}
            </MantineNavLink>
          )}
          {main.slice(2).map(link)}
          {reports.length > 0 && (
            <MantineNavLink label={t('nav.reports')} childrenOffset={16}>
              {reports.map(link)}
            </MantineNavLink>
          )}
          <Divider my="sm" />
          <LanguageSelect withLabel />
          {session ? (
            <>
              {link({ key: 'profile', label: 'nav.profile', to: paths.profile })}
              <Button
                variant="light"
                onClick={() => {
                  onClose();
                  onLogout();
                }}
              >
                {t('nav.logout')}
              </Button>
            </>
          ) : (
            <Button component={Link} to={paths.login} onClick={onClose}>
              {t('nav.login')}
            </Button>
          )}
          {install && (
            <Button variant="outline" leftSection={<IconDownload size={16} />} onClick={() => void install()}>
              {t('nav.installApp')}
            </Button>
          )}
          <Text size="xs" c="dimmed" mt="md">
            {t('nav.version', { version: APP_VERSION })}
          </Text>
        </Stack>
      </ScrollArea>
    </Drawer>
  );
}
