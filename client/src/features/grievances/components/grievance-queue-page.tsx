import { Container, Group, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GRIEVANCE_PAGE_SIZE, GRIEVANCE_STATUSES, type GrievanceStatus } from '@pm/protocol/grievance';
import { useGrievanceQueue } from '../api/grievances';
import { GrievanceCard } from './grievance-bits';
import { QueryState } from '@/components/query-state';

const NOT_RESOLVED = 'NOT_RESOLVED';

/**
 * The staff's grievance queue (HANDLE_GRIEVANCE; docs/charity.md "Grievances": GET
 * /grievance/queue): grievances and reports of campaigns not resolved, the overdue first, then by
 * due time, as the server orders them; a status, a search, pages. Each opens its thread, where
 * staff answer, assign and resolve.
 */
export default function GrievanceQueuePage() {
  const { t } = useTranslation(['grievance', 'common']);
  const [status, setStatus] = useState<string>(NOT_RESOLVED);
  const [input, setInput] = useState('');
  const [q] = useDebouncedValue(input.trim(), 300);
  const [page, setPage] = useState(1);
  const query = useGrievanceQueue({ status: status === NOT_RESOLVED ? undefined : (status as GrievanceStatus), q, page });
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / GRIEVANCE_PAGE_SIZE));
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('grievance:queue.title')}
        </Title>
        <Text size="sm">{t('grievance:queue.intro')}</Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('grievance:queue.status')}
            data={[{ value: NOT_RESOLVED, label: t('grievance:queue.notResolved') }, ...GRIEVANCE_STATUSES.map((s) => ({ value: s, label: t(`grievance:status.${s}`) }))]}
            value={status}
            onChange={(v) => {
              if (!v) return;
              setStatus(v);
              setPage(1);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label={t('grievance:queue.search')}
            placeholder={t('grievance:queue.searchHint')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={input}
            onChange={(e) => {
              setInput(e.currentTarget.value);
              setPage(1);
            }}
            maxLength={100}
            w={{ base: '100%', xs: 260 }}
          />
        </Group>
        <QueryState query={query} failedTitle={t('grievance:queue.loadFailed')}>
          {(found) =>
            found.data.length === 0 ? (
              <Text>{t('grievance:queue.none')}</Text>
            ) : (
              <>
                <Text size="sm" c="dimmed" data-testid="grievance-total">
                  {t('grievance:queue.total', { count: found.total })}
                </Text>
                {found.data.map((g) => (
                  <GrievanceCard
                    key={g.id}
                    row={g}
                    showRaiser
                    footer={
                      <Text size="xs" c="dimmed">
                        {t('grievance:queue.owner')}: {g.owner?.name ?? t('grievance:queue.nobody')}
                      </Text>
                    }
                  />
                ))}
                {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
              </>
            )
          }
        </QueryState>
      </Stack>
    </Container>
  );
}
