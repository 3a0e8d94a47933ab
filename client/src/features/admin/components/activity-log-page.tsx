import { Alert, Badge, Group, Loader, Pagination, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityLogEntry } from '../../../../../sync-protocol/src/activity-log';
import { LOG_PAGE_SIZE, type LogSort, useActivityLog } from '../api/get-activity-log';
import { useActivityLogCount } from '../api/get-activity-log-count';
import { changedPaths } from '../lib/json-diff';
import { JsonDiffView } from './json-diff-view';

const ACTION_COLOR = { CREATE: 'green', UPDATE: 'blue', DELETE: 'red' } as const;

function SortHeader({ col, sort, order, onSort, children }: { col: LogSort; sort: LogSort; order: 'asc' | 'desc'; onSort: (c: LogSort) => void; children: string }) {
  const active = sort === col;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} style={{ whiteSpace: 'nowrap' }}>
      <UnstyledButton onClick={() => onSort(col)} fw={700} fz="sm">
        {children} {active ? (order === 'asc' ? '▲' : '▼') : '↕'}
      </UnstyledButton>
    </Table.Th>
  );
}

function Row({ e }: { e: ActivityLogEntry }) {
  const { t, i18n } = useTranslation('admin-dashboard');
  const paths = changedPaths(e.oldValue, e.newValue);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {new Intl.DateTimeFormat(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeStyle: 'medium' }).format(e.createdAt)}
      </Table.Td>
      <Table.Td>
        <Badge color={ACTION_COLOR[e.actionType]} variant="light">
          {t(`log.actions.${e.actionType}`)}
        </Badge>
      </Table.Td>
      <Table.Td>{e.person?.name ?? t('log.system')}</Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {e.entityAffected}
        </Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {e.entityId}
        </Text>
      </Table.Td>
      <Table.Td miw={220}>
        <JsonDiffView value={e.oldValue} side="old" paths={paths} label={t('log.oldValue')} />
      </Table.Td>
      <Table.Td miw={220}>
        <JsonDiffView value={e.newValue} side="new" paths={paths} label={t('log.newValue')} />
      </Table.Td>
    </Table.Tr>
  );
}

/** Admin: Activity log (spec §2): paginated by 50, sortable by time, action, user and entity, old and new values as JSON viewers. */
export default function ActivityLogPage() {
  const { t } = useTranslation(['admin-dashboard', 'admin']);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<LogSort>('createdAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const log = useActivityLog((page - 1) * LOG_PAGE_SIZE, sort, order);
  const count = useActivityLogCount();
  const pages = Math.max(1, Math.ceil((count.data ?? 0) / LOG_PAGE_SIZE));
  const onSort = (c: LogSort) => {
    if (c === sort) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(c);
      setOrder(c === 'createdAt' ? 'desc' : 'asc');
    }
    setPage(1);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('log.title')}</Title>
        {count.data !== undefined && <Text c="dimmed">{t('log.count', { count: count.data })}</Text>}
      </Group>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {t('log.legend')}
        </Text>
        <Badge color="red" variant="light" size="xs">
          {t('log.removed')}
        </Badge>
        <Badge color="green" variant="light" size="xs">
          {t('log.added')}
        </Badge>
        <Badge color="yellow" variant="light" size="xs">
          {t('log.changed')}
        </Badge>
      </Group>
      {log.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {log.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" aria-label={t('log.title')}>
          <Table.Thead>
            <Table.Tr>
              <SortHeader col="createdAt" sort={sort} order={order} onSort={onSort}>
                {t('log.timestamp')}
              </SortHeader>
              <SortHeader col="actionType" sort={sort} order={order} onSort={onSort}>
                {t('log.action')}
              </SortHeader>
              <SortHeader col="person" sort={sort} order={order} onSort={onSort}>
                {t('log.user')}
              </SortHeader>
              <SortHeader col="entityAffected" sort={sort} order={order} onSort={onSort}>
                {t('log.entity')}
              </SortHeader>
              <Table.Th>{t('log.oldValue')}</Table.Th>
              <Table.Th>{t('log.newValue')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(log.data?.data ?? []).map((e) => (
              <Row key={e.id} e={e} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {log.isSuccess && log.data.data.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      <Pagination total={pages} value={page} onChange={setPage} />
    </Stack>
  );
}
