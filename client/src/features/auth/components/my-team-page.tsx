import { Alert, Anchor, Badge, Card, Center, Container, Group, Loader, Pagination, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TeamMember } from '@pm/protocol/person';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { useTeam } from '../api/get-team';

/** Members shown a page. */
export const TEAM_PAGE_SIZE = 20;

function Count({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId}>
        {value ?? '—'}
      </Text>
    </Paper>
  );
}

function MemberCard({ member }: { member: TeamMember }) {
  const { t, i18n } = useTranslation('auth');
  return (
    <Card withBorder padding="sm" data-testid="team-member">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {member.name}
          </Text>
          <Text size="sm" c="dimmed" dir="ltr">
            {member.mobile}
          </Text>
          <Text size="xs" c="dimmed">
            {t('team.joined', { date: formatDate(member.joinedAt, i18n.language, 'dateLong') })}
          </Text>
        </Stack>
        <Badge variant="light" style={{ flexShrink: 0 }}>
          {member.depth === 1 ? t('team.direct') : t('team.level', { depth: member.depth })}
        </Badge>
      </Group>
    </Card>
  );
}

/**
 * /profile/team: My team (docs/charity.md "The referral team"): the people one invited and the
 * people they invited, down to ten levels, as information only: the counts, a search by name or
 * whole mobile, the paged list with join dates (mobiles masked by the server), and the sentence
 * that the team earns nothing.
 */
export default function MyTeamPage() {
  const { t } = useTranslation(['auth', 'common']);
  const session = useSession();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(q.trim(), 300);
  const team = useTeam(session?.id ?? '', { q: debounced, page, size: TEAM_PAGE_SIZE });
  const pages = team.data ? Math.max(1, Math.ceil(team.data.total / TEAM_PAGE_SIZE)) : 1;
  return (
    <Container size="sm" py="lg" px="xs">
      <Stack gap="md">
        <Anchor component={Link} to={paths.profile} size="sm">
          {t('auth:team.back')}
        </Anchor>
        <Title order={1} size="h2">
          {t('auth:team.title')}
        </Title>
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="team-information-only">
          {t('auth:team.informationOnly')}
        </Alert>
        <SimpleGrid cols={2} spacing="sm">
          <Count label={t('auth:profile.teamSize')} value={team.data?.team} testId="team-size" />
          <Count label={t('auth:profile.directReferrals')} value={team.data?.direct} testId="team-direct" />
        </SimpleGrid>
        <TextInput
          label={t('auth:team.search')}
          description={t('auth:team.searchHint')}
          leftSection={<IconSearch size={16} aria-hidden />}
          maxLength={100}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
        />
        {team.isPending ? (
          <Center py="md">
            <Loader size="sm" aria-label={t('common:actions.loading')} />
          </Center>
        ) : team.isError ? (
          <Alert color="red" variant="light" role="alert" title={t('auth:team.loadFailed')}>
            {team.error instanceof ApiError ? team.error.msg : t('common:errors.someError')}
          </Alert>
        ) : team.data.data.length === 0 ? (
          <Text c="dimmed" data-testid="team-empty">
            {debounced ? t('auth:team.noMatch') : t('auth:team.empty')}
          </Text>
        ) : (
          <Stack gap="xs" aria-label={t('auth:team.listLabel')} component="section">
            <Text size="sm" c="dimmed" data-testid="team-total">
              {t('auth:team.total', { count: team.data.total })}
            </Text>
            {team.data.data.map((m) => (
              <MemberCard key={m.id} member={m} />
            ))}
            {pages > 1 && (
              <Center>
                <Pagination total={pages} value={page} onChange={setPage} size="sm" siblings={0} />
              </Center>
            )}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
