import { Alert, Badge, Button, Group, Loader, Modal, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUSES, type OrderRow, type OrderStatus } from '@pm/protocol/order';
import { useSession } from '@/hooks/use-session';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { permissionsOf } from '@/lib/session';
import { ORDER_PAGE_SIZE, type OrderFilters, useOrders } from '../api/get-orders';
import { useUpdateOrderStatus } from '../api/update-order-status';
import { type DayRange, REPORT_TIME_ZONE, rupees } from '../lib/report-range';
import { DateRangeField, rangeFilter } from './date-range-field';
import { useFormatDate } from '@/hooks/use-format-date';

export const STATUS_COLOR: Record<string, string> = { PAID: 'green', CREATED: 'gray', FAILED: 'red', CANCELLED: 'orange', REFUNDED: 'grape', SUCCESS: 'green', PENDING: 'gray' };

/** The query an orders screen asks for, from its filter fields. */
export function orderFilters(status: string | null, q: string, range: DayRange, page: number): OrderFilters {
  return { status: (status ?? undefined) as OrderStatus | undefined, q: q.trim(), ...rangeFilter(range), offset: (page - 1) * ORDER_PAGE_SIZE };
}

/** Admin: Orders — plan purchase orders with status, date and text filters; status changes need UPDATE_ORDER. */
export default function OrdersPage() {
  const { t, i18n } = useTranslation(['admin-shop', 'admin-dashboard', 'admin']);
  const lang = i18n.language;
  const perms = permissionsOf(useSession());
  const [status, setStatus] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [q] = useDebouncedValue(input, 300);
  const [range, setRange] = useState<DayRange>([null, null]);
  const [page, setPage] = useState(1);
  const filters = orderFilters(status, q, range, page);
  const orders = useOrders(filters);
  const update = useUpdateOrderStatus();
  const [change, setChange] = useState<{ order: OrderRow; status: OrderStatus } | null>(null);
  const formatDate = useFormatDate();
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / ORDER_PAGE_SIZE));
  const statusLabel = (s: string) => t(`admin-dashboard:sale.statuses.${s as OrderStatus}`);

  const confirm = async () => {
    const c = change;
    setChange(null);
    if (!c) return;
    try {
      notifySuccess(translateServerMessage((await update.mutateAsync({ id: c.order.id, status: c.status })).msg));
    } catch {
      // api() has shown the message.
    }
  };

  return (
    <Stack>
      <Title order={2}>{t('orders.title')}</Title>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('orders.status')}
          placeholder={t('orders.anyStatus')}
          data={ORDER_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          clearable
          w={180}
        />
        <DateRangeField
          value={range}
          onChange={(v) => {
            setRange(v);
            setPage(1);
          }}
          required={false}
        />
        <TextInput
          label={t('orders.search')}
          value={input}
          onChange={(e) => {
            setInput(e.currentTarget.value);
            setPage(1);
          }}
          type="search"
          w={240}
        />
      </Group>
      {orders.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {orders.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {orders.data && (
        <Text size="sm" c="dimmed">
          {t('orders.count', { count: orders.data.total })}
        </Text>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={t('orders.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('orders.date')}</Table.Th>
              <Table.Th>{t('orders.person')}</Table.Th>
              <Table.Th>{t('orders.plan')}</Table.Th>
              <Table.Th ta="right">{t('orders.amount')}</Table.Th>
              <Table.Th>{t('orders.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(orders.data?.data ?? []).map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(o.createdAt, 'dateTime', REPORT_TIME_ZONE)}</Table.Td>
                <Table.Td>{o.person ? `${o.person.n} (${o.person.m})` : '—'}</Table.Td>
                <Table.Td>{o.plan ? (lang === 'hi' ? o.plan.name.hi : o.plan.name.en) : '—'}</Table.Td>
                <Table.Td ta="right">{rupees(o.amount, lang)}</Table.Td>
                <Table.Td>
                  {perms.has('UPDATE_ORDER') ? (
                    <Select
                      aria-label={t('orders.changeStatusOf', { who: o.person?.n ?? '—', when: formatDate(o.createdAt, 'dateTime', REPORT_TIME_ZONE) })}
                      data={ORDER_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
                      value={o.status}
                      onChange={(v) => v && v !== o.status && setChange({ order: o, status: v as OrderStatus })}
                      allowDeselect={false}
                      size="xs"
                      w={150}
                    />
                  ) : (
                    <Badge color={STATUS_COLOR[o.status] ?? 'gray'} variant="light">
                      {statusLabel(o.status)}
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {orders.isSuccess && orders.data.data.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
      <Modal opened={change !== null} onClose={() => setChange(null)} title={t('orders.confirmTitle')} centered>
        {change && <Text mb="md">{t('orders.confirmText', { from: statusLabel(change.order.status), to: statusLabel(change.status) })}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setChange(null)}>
            {t('admin:common.cancel')}
          </Button>
          <Button onClick={() => void confirm()} loading={update.isPending}>
            {t('admin:common.confirm')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
