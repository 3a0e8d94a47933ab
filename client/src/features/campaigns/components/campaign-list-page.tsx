import { Alert, Button, Container, Group, Pagination, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { permissionsOf } from '@/lib/session';
import { useCampaigns } from '../api/campaigns';
import { CAMPAIGN_SORTS, CAUSES, type CampaignSort, type Cause } from '../api/types';
import { CampaignCardView } from './campaign-card';
import { OfflineNote } from './offline-note';

/** Cards per page. */
export const PAGE_SIZE = 12;

const isCause = (v: string | null): v is Cause => CAUSES.includes(v as Cause);
const isSort = (v: string | null): v is CampaignSort => CAMPAIGN_SORTS.includes(v as CampaignSort);

/** The search, filter, sort and page live in the address, so Back and a shared link keep them. */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const cause = params.get('cause');
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  const value = {
    q: params.get('q') ?? '',
    cause: isCause(cause) ? cause : ('' as const),
    sort: isSort(sort) ? sort : ('newest' as const),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
  const set = (patch: Partial<typeof value>) => {
    const next = { ...value, page: 1, ...patch };
    const q = new URLSearchParams();
    if (next.q) q.set('q', next.q);
    if (next.cause) q.set('cause', next.cause);
    if (next.sort !== 'newest') q.set('sort', next.sort);
    if (next.page > 1) q.set('page', String(next.page));
    setParams(q, { replace: true });
  };
  return [value, set] as const;
}

/** Start a campaign, My campaigns and the approval queue, for those they are for. */
function ListActions() {
  const { t } = useTranslation('campaign');
  const session = useSession();
  const trustee = permissionsOf(session).has('APPROVE_CAMPAIGN');
  return (
    <Group gap="xs">
      <Button component={Link} to={`${paths.myCampaigns}/new`} size="sm">
        {t('list.start')}
      </Button>
      {session && (
        <Button component={Link} to={paths.myCampaigns} variant="light" size="sm">
          {t('list.mine')}
        </Button>
      )}
      {trustee && (
        <Button component={Link} to={paths.trustee} variant="subtle" size="sm">
          {t('list.queue')}
        </Button>
      )}
      {permissionsOf(session).has('APPROVE_WITHDRAWAL') && (
        <Button component={Link} to={paths.withdrawals} variant="subtle" size="sm">
          {t('list.withdrawals')}
        </Button>
      )}
    </Group>
  );
}

/** Public campaigns (docs/charity.md "API": GET /campaigns): cards, search, cause, sort and pages. */
export default function CampaignListPage() {
  const { t } = useTranslation(['campaign', 'common']);
  const [params, setParams] = useListParams();
  const [search, setSearch] = useState(params.q);
  const [debounced] = useDebouncedValue(search.trim(), 350);
  // The typed search reaches the address (and the query) once typing pauses.
  useEffect(() => {
    if (debounced !== params.q) setParams({ q: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new typed value moves the address
  }, [debounced]);
  const query = useCampaigns({ q: params.q, cause: params.cause, sort: params.sort, page: params.page, size: PAGE_SIZE });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / PAGE_SIZE)) : 1;

  return (
    <Container size="lg" py="lg">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('list.title')}
          </Title>
          <Text c="dimmed">{t('list.intro')}</Text>
        </Stack>
        <ListActions />
        <OfflineNote />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            type="search"
            label={t('list.search')}
            placeholder={t('list.searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Select
            label={t('list.cause')}
            data={[{ value: '', label: t('list.allCauses') }, ...CAUSES.map((c) => ({ value: c, label: t(`cause.${c}`) }))]}
            value={params.cause}
            onChange={(v) => setParams({ cause: isCause(v) ? v : '' })}
            allowDeselect={false}
          />
          <Select
            label={t('list.sort')}
            data={CAMPAIGN_SORTS.map((s) => ({ value: s, label: t(`sort.${s}`) }))}
            value={params.sort}
            onChange={(v) => setParams({ sort: isSort(v) ? v : 'newest' })}
            allowDeselect={false}
          />
        </SimpleGrid>

        {query.isPending && (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={300} radius="md" />
            ))}
          </SimpleGrid>
        )}
        {query.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:list.loadFailed')} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
                {t('common:errors.tryAgain')}
              </Button>
            </Stack>
          </Alert>
        )}
        {query.isSuccess && query.data.data.length === 0 && <Text>{params.q || params.cause ? t('list.noMatch') : t('list.empty')}</Text>}
        {query.isSuccess && query.data.data.length > 0 && (
          <>
            <Text size="sm" c="dimmed" role="status">
              {t('list.count', { count: query.data.total })}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
              {query.data.data.map((c) => (
                <CampaignCardView key={c.id} campaign={c} />
              ))}
            </SimpleGrid>
            {pages > 1 && (
              <Group justify="center">
                <Pagination
                  total={pages}
                  value={params.page}
                  onChange={(page) => setParams({ ...params, page })}
                  siblings={0}
                  getControlProps={(control) => ({ 'aria-label': t(`list.pageControl.${control}`) })}
                  getItemProps={(page) => ({ 'aria-label': t('list.pageN', { page }) })}
                />
              </Group>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
