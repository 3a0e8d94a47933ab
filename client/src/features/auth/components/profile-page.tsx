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
import { useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconDevices, IconKey } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { requestLogout } from '@/lib/logout-request';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { clearSession, updateSession } from '@/lib/session';
import { hasUnsafeChars } from '@pm/protocol/text-rules';
import { type Profile, useProfile } from '../api/get-profile';
import { logoutAll } from '../api/logout-all';
import { requestEmailChange } from '../api/request-email-change';
import { updateProfile } from '../api/update-profile';
import { verifyEmailChange } from '../api/verify-email-change';
import { isEmail } from '../lib/username';

import { ErrorList } from './error-list';
import { RequireSession } from './require-session';
import { VerifyMobile } from './verify-mobile';
import { roleName } from '@/lib/built-in-labels';

/** The link a person shares to bring others into their team (`?referrer=` on /login, docs/api.md "Signup"). */
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
          <Detail label={t('profile.mobile')}>
            {profile.m}
            {profile.mv ? ` (${t('profile.mobileVerified')})` : ''}
          </Detail>
          <Detail label={t('profile.email')}>{profile.e ?? t('profile.noEmail')}</Detail>
          <Detail label={t('profile.role')}>{profile.r ? roleName(profile.r) : '—'}</Detail>
          <Detail label={t('profile.teamSize')}>{profile.teamSize}</Detail>
          <Detail label={t('profile.directReferrals')}>{profile.directDownlines}</Detail>
        </SimpleGrid>
        <Anchor component={Link} to={paths.profileTeam} size="sm" mt="xs" display="inline-block" data-testid="my-team-link">
          {t('team.link')}
        </Anchor>
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

      {!profile.mv && <VerifyMobile />}

      <EditDetails profile={profile} />

      <Group>
        <Button component={Link} to={paths.resetPassword} variant="light" leftSection={<IconKey size={16} />}>
          {t('profile.changePassword')}
        </Button>
        <LogoutEverywhere />
      </Group>
    </Stack>
  );
}

/** A server answer as the person reads it (the server's English, translated), or the generic one. */
function errorText(e: unknown, fallback: string): string {
  return e instanceof ApiError ? translateServerMessage(e.msg) : fallback;
}

/**
 * Editing one's own name and e-mail (docs/api.md "Profile"). A new e-mail is used only once the
 * code sent to it is entered; until then the old one stays (and the new one shows as waiting).
 */
function EditDetails({ profile }: { profile: Profile }) {
  const { t } = useTranslation(['auth', 'messages']);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['person', 'me'] });

  const [name, setName] = useState(profile.n);
  const [nameError, setNameError] = useState<string | null>(null);
  const [nameErrors, setNameErrors] = useState<string[]>([]);
  const [savingName, setSavingName] = useState(false);
  const nameProblem = (v: string) => (v.trim().length < 4 ? t('messages:fullName') : hasUnsafeChars(v.trim()) ? t('messages:unsafeCharacters') : null);
  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name);
    setNameError(problem);
    if (problem) return;
    setSavingName(true);
    setNameErrors([]);
    try {
      const r = await updateProfile({ name });
      updateSession({ name: r.name });
      notifySuccess(t('messages:profileUpdated'));
      await refresh();
    } catch (err) {
      setNameErrors([errorText(err, t('messages:someError'))]);
    } finally {
      setSavingName(false);
    }
  };

  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [emailErrors, setEmailErrors] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [sentNote, setSentNote] = useState(false);
  const [code, setCode] = useState('');
  const [codeErrors, setCodeErrors] = useState<string[]>([]);
  const [verifying, setVerifying] = useState(false);
  const sendCode = async (e: FormEvent) => {
    e.preventDefault();
    const problem = isEmail(email.trim()) ? null : t('messages:validEmail');
    setEmailError(problem);
    if (problem) return;
    setSending(true);
    setEmailErrors([]);
    try {
      await requestEmailChange({ email });
      setSentNote(true);
      setCode('');
      await refresh();
    } catch (err) {
      setEmailErrors([errorText(err, t('messages:someError'))]);
    } finally {
      setSending(false);
    }
  };
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    setVerifying(true);
    setCodeErrors([]);
    try {
      const r = await verifyEmailChange({ code });
      updateSession({ email: r.email });
      notifySuccess(t('messages:emailChanged'));
      setSentNote(false);
      setEmail('');
      setCode('');
      await refresh();
    } catch (err) {
      setCodeErrors([errorText(err, t('messages:someError'))]);
    } finally {
      setVerifying(false);
    }
  };
  // After a request the answer is the same whether or not the address can be used, so the code
  // form shows then, and also for an address still waiting from before (after a reload).
  const waiting = profile.pendingEmail ?? (sentNote ? email.trim().toLowerCase() : null);

  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
      <Title order={2} size="h4" mb="sm">
        {t('auth:profile.editTitle')}
      </Title>
      <Stack gap="lg">
        <form onSubmit={(e) => void saveName(e)} noValidate>
          <Stack gap="xs">
            <ErrorList title={t('auth:profile.nameErrorsTitle')} errors={nameErrors} />
            <TextInput
              label={t('auth:profile.name')}
              autoComplete="name"
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              onBlur={() => setNameError(nameProblem(name))}
              error={nameError}
            />
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={savingName} disabled={name.trim() === profile.n}>
                {t('auth:profile.saveName')}
              </Button>
            </Group>
          </Stack>
        </form>

        <form onSubmit={(e) => void sendCode(e)} noValidate>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('auth:profile.emailIntro')}
            </Text>
            <ErrorList title={t('auth:profile.emailErrorsTitle')} errors={emailErrors} />
            <TextInput
              label={t('auth:profile.newEmail')}
              type="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={emailError}
            />
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={sending} disabled={!email.trim()}>
                {t('auth:profile.sendCode')}
              </Button>
            </Group>
          </Stack>
        </form>

        {waiting && (
          <form onSubmit={(e) => void verify(e)} noValidate>
            <Stack gap="xs">
              <Alert color="blue" variant="light" data-testid="email-waiting">
                {sentNote ? t('messages:emailCodeSent') : t('auth:profile.emailWaiting', { email: waiting })}
              </Alert>
              <ErrorList title={t('auth:profile.codeErrorsTitle')} errors={codeErrors} />
              <TextInput
                label={t('auth:profile.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              />
              <Group justify="flex-end">
                <Button type="submit" loading={verifying} disabled={code.length !== 6}>
                  {t('auth:profile.confirmEmail')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * "Log out of all devices" (docs/security.md "Sessions and logout"): the server ends every session of the person, then this
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
        {/* Every test the person submitted (docs/exams.md "My results"), also in the header menu. */}
        <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('auth:profile.myResultsText')}</Text>
            <Button component={Link} to={paths.myResults} variant="light" data-testid="profile-my-results">
              {t('common:nav.myResults')}
            </Button>
          </Group>
        </Paper>
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
