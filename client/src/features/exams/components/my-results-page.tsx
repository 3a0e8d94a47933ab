import { Alert, Badge, Button, Card, Container, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCloudCheck, IconCloudUpload, IconLock } from '@tabler/icons-react';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { api } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { useEntitlement } from '../hooks/use-allowance';
import { type MyResultRow, useMyResults } from '../hooks/use-my-results';
import { isLocked } from '../lib/allowance';
import { durationText } from '../lib/duration';
import { formatMarks } from '../lib/marks';

type Rank = { rank: number; of: number };

/**
 * The learner's rank at each set they have a ranked result of, asked of the server while online
 * (ranks compare learners, so they are not on the device); none offline.
 */
function useRanks(qsids: string[], online: boolean): Map<string, Rank> {
  const [ranks, setRanks] = useState(new Map<string, Rank>());
  const key = qsids.join('\n');
  useEffect(() => {
    if (!online || key === '') return;
    let stop = false;
    void Promise.all(
      key.split('\n').map((qsid) =>
        api<{ success: boolean; rank: number; of: number }>('/question/getRank', { query: { qsid }, background: true, silent: true })
          .then((r) => (r.success ? ([qsid, { rank: r.rank, of: r.of }] as const) : null))
          .catch(() => null),
      ),
    ).then((found) => {
      if (!stop) setRanks(new Map(found.filter((f) => f !== null)));
    });
    return () => {
      stop = true;
    };
  }, [key, online]);
  return online ? ranks : new Map();
}

function Fact({ label, value, testId, seconds }: { label: string; value: string; testId?: string; seconds?: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} data-testid={testId} data-seconds={seconds}>
        {value}
      </Text>
    </div>
  );
}

function ResultRow({ row, rank, locked }: { row: MyResultRow; rank: Rank | undefined; locked: boolean }) {
  const { t, i18n } = useTranslation('exam');
  const fmt = (n: number) => formatMarks(n, i18n.language);
  const date = formatDate(row.submittedAt, i18n.language);
  const score = locked ? t('myResults.locked') : row.score ? t('outOf', { got: fmt(row.score.got), of: fmt(row.score.of) }) : t('myResults.notScored');
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={row.title} data-testid={`my-result-${row.attemptId}`}>
      <Stack gap="xs">
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {row.title}
        </Title>
        <Group gap="xs">
          <Badge variant="light" color={row.practice ? 'gray' : 'indigo'} data-testid="attempt-kind">
            {row.practice ? t('myResults.practice') : t('myResults.ranked')}
          </Badge>
          <Badge
            variant="dot"
            color={row.synced ? 'teal' : 'orange'}
            leftSection={row.synced ? <IconCloudCheck size={12} aria-hidden /> : <IconCloudUpload size={12} aria-hidden />}
            data-testid="sync-state"
          >
            {row.synced ? t('myResults.synced') : t('myResults.waiting')}
          </Badge>
          {locked && (
            <Badge variant="light" color="orange" leftSection={<IconLock size={12} aria-hidden />}>
              {t('allowance.lockedAttempt')}
            </Badge>
          )}
        </Group>
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(8rem, 1fr))', gap: '4px 16px' }}>
          <Fact label={t('submittedOn')} value={date} />
          <Fact label={t('marksObtained')} value={score} testId="my-result-score" />
          <Fact
            label={t('rank')}
            value={row.practice ? t('myResults.notRanked') : rank ? t('myResults.rankOf', { rank: rank.rank, of: rank.of }) : '—'}
            testId="my-result-rank"
          />
          <Fact label={t('timeTaken')} value={row.timeS === null ? '—' : durationText(row.timeS, t)} seconds={row.timeS ?? undefined} testId="my-result-time" />
        </dl>
        <Group justify="flex-end">
          <Button component={Link} to={`${paths.examResult}/${encodeURIComponent(row.qsid)}/false`} variant="light" size="sm" aria-label={t('myResults.viewResultOf', { title: row.title })}>
            {t('viewResult')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * My results (docs/exams.md "My results"): every test the learner submitted, newest first, from
 * the device's replica (so offline too), with its score, rank (online), whether it was ranked or
 * practice, and whether it has reached the server.
 */
export default function MyResultsPage() {
  const { t } = useTranslation('exam');
  const { data, loading } = useMyResults();
  const entitlement = useEntitlement().data ?? null;
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  const rankedSets = useMemo(() => [...new Set((data ?? []).filter((r) => r.synced && !r.practice).map((r) => r.qsid))].sort(), [data]);
  const ranks = useRanks(rankedSets, online);
  return (
    <Container size="md" py="lg">
      <Stack>
        <Title order={2}>{t('myResults.title')}</Title>
        {loading ? (
          <Skeleton height={160} radius="md" />
        ) : data && data.length > 0 ? (
          <Stack gap="sm" data-testid="my-results">
            {data.map((row) => (
              <ResultRow key={row.attemptId} row={row} rank={row.practice ? undefined : ranks.get(row.qsid)} locked={isLocked(entitlement, row.attemptId)} />
            ))}
          </Stack>
        ) : (
          <Alert color="gray">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{t('myResults.empty')}</Text>
              <Button component={Link} to={paths.examList} size="sm">
                {t('myResults.toExams')}
              </Button>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
