import { Alert, Badge, Group, Loader, Pagination, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityLogEntry } from '@pm/protocol/activity-log';
import { LOG_PAGE_SIZE, type LogSort, useActivityLog } from '../api/get-activity-log';
import { useActivityLogCount } from '../api/get-activity-log-count';
import { changedPaths } from '../lib/json-diff';
import { JsonDiffView } from './json-diff-view';
import { useFormatDate } from '@/hooks/use-format-date';

const ACTION_COLOR = { CREATE: 'green', UPDATE: 'blue', DELETE: 'red' } as const;

/** The entities the server logs (its `logActivity` calls); another one is shown by its code. */
const ENTITIES = ['banner', 'brand', 'contact_message', 'exam_result', 'order', 'permission', 'person', 'plan', 'question', 'question_set', 'role', 'static_page', 'tag'] as const;
type Entity = (typeof ENTITIES)[number];
const isEntity = (e: string): e is Entity => (ENTITIES as readonly string[]).includes(e);

function SortHeader({ col, sort, order, onSort, children }: { col: LogSort; sort: LogSort; order: 'asc' | 'desc'; onSort: (c: LogSort) => void; children: string }) {
  const active = sort === col;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'} style={{ whiteSpace: 'nowrap' }}>
      <UnstyledButton onClick={() => onSort(col)} fw={700} fz="sm">
        {children} <span aria-hidden="true">{active ? (order === 'asc' ? '▲' : '▼') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

function Row({ e, formatDate }: { e: ActivityLogEntry; formatDate: (ms: number) => string }) {
  const { t } = useTranslation('admin-dashboard');
  const paths = changedPaths(e.oldValue, e.newValue);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(e.createdAt)}</Table.Td>
      <Table.Td>
        <Badge color={ACTION_COLOR[e.actionType]} variant="light">
          {t(`log.actions.${e.actionType}`)}
        </Badge>
      </Table.Td>
      <Table.Td>{e.person?.name ?? t('log.system')}</Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {isEntity(e.entityAffected) ? t(`log.entities.${e.entityAffected}`) : e.entityAffected}
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

/**
 * Admin: Activity log: paginated by 50 (docs/glossary.md "Fixed values") with the total from /getActivityLog/count,
 * sortable by time, action, user and entity (the server sorts: a page is a slice of the whole
 * log), old and new values as JSON viewers with what changed highlighted. At 360 px the table
 * scrolls sideways inside its container.
 */
export default function ActivityLogPage() {
  const { t } = useTranslation(['admin-dashboard', 'admin']);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<LogSort>('createdAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const log = useActivityLog((page - 1) * LOG_PAGE_SIZE, sort, order);
  const count = useActivityLogCount();
  const pages = Math.max(1, Math.ceil((count.data ?? 0) / LOG_PAGE_SIZE));
  const formatDate = useFormatDate();
  const onSort = (c: LogSort) => {
    if (c === sort) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(c);
      // Newest first is what one wants of times; names and codes read best A to Z.
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
        <Badge color="yellow" variant="outline" size="xs" style={{ borderStyle: 'dashed' }}>
          {t('log.inside')}
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
              <Row key={e.id} e={e} formatDate={formatDate} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {log.isSuccess && log.data.data.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => (control === 'previous' ? { 'aria-label': t('admin:common.previous') } : control === 'next' ? { 'aria-label': t('admin:common.next') } : {})}
          getItemProps={(p) => ({ 'aria-label': t('admin:common.page', { page: p, pages }) })}
        />
      )}
    </Stack>
  );
}
