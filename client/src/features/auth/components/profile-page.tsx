import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  Container,
  CopyButton,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconDevices, IconKey } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSession } from '../../../hooks/use-session';
import { ApiError } from '../../../lib/api-client';
import { requestLogout } from '../../../lib/logout-request';
import { clearSession } from '../../../lib/session';
import { type Profile, useProfile } from '../api/get-profile';
import { logoutAll } from '../api/logout-all';
import { RequireSession } from './require-session';
import { roleName } from '../../../lib/built-in-labels';

/** The link a person shares to bring others into their team (spec §2: `?referrer=` on /login). */
export function referralLink(mobile: string, origin = window.location.origin): string {
  return `${origin}${paths.login}?referrer=${mobile.replace(/\D/g, '').slice(-10)}`;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function ProfileDetails({ profile }: { profile: Profile }) {
  const { t } = useTranslation('auth');
  const link = referralLink(profile.m);
  return (
    <Stack gap="md">
      <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('profile.details')}
        </Title>
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm" m={0}>
          <Detail label={t('profile.name')}>{profile.n}</Detail>
          <Detail label={t('profile.mobile')}>{profile.m}</Detail>
          <Detail label={t('profile.email')}>{profile.e ?? t('profile.noEmail')}</Detail>
          <Detail label={t('profile.role')}>{profile.r ? roleName(profile.r) : '—'}</Detail>
          <Detail label={t('profile.teamSize')}>{profile.teamSize}</Detail>
          <Detail label={t('profile.directReferrals')}>{profile.directDownlines}</Detail>
        </SimpleGrid>
        <Stack gap={4} mt="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600} id="referrer-chain">
            {t('profile.referrers')}
          </Text>
          {profile.uplines.length === 0 ? (
            <Text>{t('profile.noReferrer')}</Text>
          ) : (
            // Nearest first: the person who invited you, then who invited them, and so on.
            <List type="ordered" size="sm" aria-labelledby="referrer-chain">
              {profile.uplines.map((u) => (
                <List.Item key={u.id}>{u.name}</List.Item>
              ))}
            </List>
          )}
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
        <Title order={2} size="h4" mb={4}>
          {t('profile.inviteTitle')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('profile.inviteText')}
        </Text>
        <TextInput
          label={t('profile.referralLink')}
          value={link}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          rightSection={
            <CopyButton value={link} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('profile.copied') : t('profile.copy')} withArrow position="left">
                  <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" onClick={copy} aria-label={copied ? t('profile.copied') : t('profile.copy')}>
                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          }
        />
      </Paper>

      <Group>
        <Button component={Link} to={paths.resetPassword} variant="light" leftSection={<IconKey size={16} />}>
          {t('profile.changePassword')}
        </Button>
        <LogoutEverywhere />
      </Group>
    </Stack>
  );
}

/**
 * "Log out of all devices" (issue 16 §4): the server ends every session of the person, then this
 * device logs out as the navigation bar's Logout does. A failure is shown by the fetch wrapper.
 */
function LogoutEverywhere() {
  const { t } = useTranslation(['auth', 'common']);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await logoutAll();
    } catch {
      setBusy(false);
      return;
    }
    setAsking(false);
    if (!requestLogout({ endedOnServer: true })) clearSession();
  };
  return (
    <>
      <Button variant="light" color="red" leftSection={<IconDevices size={16} />} onClick={() => setAsking(true)}>
        {t('auth:profile.logoutAll')}
      </Button>
      <Modal opened={asking} onClose={() => !busy && setAsking(false)} title={t('auth:profile.logoutAllTitle')} centered>
        <Text mb="md">{t('auth:profile.logoutAllText')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsking(false)} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={busy}>
            {t('auth:profile.logoutAllConfirm')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function ProfileContent({ children }: { children?: ReactNode }) {
  const { t } = useTranslation(['auth', 'common']);
  const session = useSession();
  const query = useProfile(session?.id ?? '');
  return (
    <Container size="sm" px="md" py="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('common:titles.profile')}
        </Title>
        {session?.iprr === 1 && (
          <Alert color="yellow" variant="light">
            {t('auth:profile.mustReset')}{' '}
            <Anchor component={Link} to={paths.resetPassword}>
              {t('auth:profile.changePassword')}
            </Anchor>
          </Alert>
        )}
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" title={t('auth:profile.loadFailed')}>
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : (
          <ProfileDetails profile={query.data} />
        )}
        {children}
      </Stack>
    </Container>
  );
}

/**
 * My Profile (login required): who I am, who invited me, my team and my referral link.
 * `children` are other features' sections (My plan), given by the app layer (app/router.tsx):
 * features do not import each other.
 */
export default function ProfilePage({ children }: { children?: ReactNode }) {
  return (
    <RequireSession>
      <ProfileContent>{children}</ProfileContent>
    </RequireSession>
  );
}
