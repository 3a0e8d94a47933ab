import { Alert, Container, Paper, Stack, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { useSession } from '@/hooks/use-session';
import { translateServerMessage } from '@/lib/server-messages';
import { getSession, takeRedirect } from '@/lib/session';
import { LoginForm } from './login-form';
import { SignupForm } from './signup-form';

type Tab = 'login' | 'signup';

/** The referrer mobile of a referral link: the last 10 digits when longer. */
function referrerFrom(raw: string | null): string {
  return raw ? raw.replace(/\D/g, '').slice(-10) : '';
}

function LoginTabs({ referrerMobile, initialTab }: { referrerMobile: string; initialTab: Tab }) {
  const { t } = useTranslation('auth');
  const [tab, setTab] = useState<Tab>(initialTab);
  return (
    // Both forms stay mounted (what was typed in one survives a look at the other), hidden by
    // style rather than by React's Activity: the page comes prerendered (scripts/vite-plugin-
    // prerender.ts), and an Activity boundary is hydrated late, so the first update to the tabs
    // would redraw the form instead of keeping the server's.
    <Tabs value={tab} onChange={(v) => setTab(v === 'signup' ? 'signup' : 'login')} keepMountedMode="display-none">
      <Tabs.List grow aria-label={t('login.tabsLabel')}>
        <Tabs.Tab value="login">{t('login.existingUsers')}</Tabs.Tab>
        <Tabs.Tab value="signup">{t('login.newUsers')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="login" pt="md">
        <LoginForm />
      </Tabs.Panel>
      <Tabs.Panel value="signup" pt="md">
        <SignupForm referrerMobile={referrerMobile} />
      </Tabs.Panel>
    </Tabs>
  );
}

/**
 * Login/Signup. `/login/:error` or `?error=` carries a message from a guard or a lost
 * session; `?referrer=` (a referral link) opens the signup tab with the referrer filled in.
 */
export default function LoginPage() {
  const { t } = useTranslation(['common', 'auth']);
  const params = useParams();
  const [search] = useSearchParams();
  const error = params.error ?? search.get('error');
  const referrerParam = search.get('referrer');
  const referrerMobile = referrerFrom(referrerParam);
  const session = useSession();
  const location = useLocation();
  // Someone already signed in when the page opened (a "Join Now" pressed before the home page's
  // app took over, a bookmark) has nothing to do here: they go on as after a login (docs/api.md
  // "Where people land"). Not a logout, which comes here with the session still set, nor a
  // guard's message or a referral link, which the page shows. During hydration `session` is
  // null (the page was drawn for a visitor), so the form is hydrated first, then left.
  const [signedInAtOpen] = useState(() => getSession() !== null);
  const loggingOut = (location.state as { loggingOut?: boolean } | null)?.loggingOut === true;
  if (session && signedInAtOpen && !loggingOut && !error && referrerParam === null) return <Navigate to={takeRedirect()} replace />;

  return (
    <Container size={480} px="md" py="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('common:titles.login')}
        </Title>
        {error && (
          <Alert color="red" variant="light" data-testid="login-route-error">
            {translateServerMessage(error)}
          </Alert>
        )}
        <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
          {/* A new referral link while on this page starts the forms afresh. */}
          <LoginTabs key={referrerMobile} referrerMobile={referrerMobile} initialTab={referrerParam ? 'signup' : 'login'} />
        </Paper>
      </Stack>
    </Container>
  );
}
