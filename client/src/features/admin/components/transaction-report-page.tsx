import { Alert, Badge, Group, Loader, Pagination, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_STATUSES, type PaymentStatus } from '@pm/protocol/payment';
import { TRANSACTION_PAGE_SIZE, type TransactionFilters, useTransactions } from '../api/get-transactions';
import { type DayRange, lastDays, REPORT_TIME_ZONE, rupees } from '../lib/report-range';
import { DateRangeField, rangeFilter } from './date-range-field';
import { STATUS_COLOR } from './orders-page';
import { StatCard } from './stat-card';
import { useFormatDate } from '@/hooks/use-format-date';

/** The query of the transaction report from its filter fields. */
export function transactionFilters(v: { range: DayRange; status: string | null; channel: string | null; type: string | null; q: string; page: number }): TransactionFilters {
  return {
    ...rangeFilter(v.range),
    status: (v.status ?? undefined) as PaymentStatus | undefined,
    channel: v.channel ?? undefined,
    type: (v.type ?? undefined) as 'credit' | 'debit' | undefined,
    q: v.q.trim(),
    offset: (v.page - 1) * TRANSACTION_PAGE_SIZE,
  };
}

/** /transaction-report: every payment with filters and totals (VIEW_REPORT). */
export default function TransactionReportPage() {
  const { t, i18n } = useTranslation(['admin-shop', 'admin']);
  const lang = i18n.language;
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const [status, setStatus] = useState<string | null>(null);
  const [channel, setChannel] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [q] = useDebouncedValue(input, 300);
  const [page, setPage] = useState(1);
  const report = useTransactions(transactionFilters({ range, status, channel, type, q, page }));
  const data = report.data;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / TRANSACTION_PAGE_SIZE));
  const formatDate = useFormatDate();
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <Stack>
      <Title order={2}>{t('transactions.title')}</Title>
      <Group align="flex-end" wrap="wrap">
        <DateRangeField value={range} onChange={reset(setRange)} required={false} />
        <Select label={t('transactions.status')} placeholder={t('transactions.any')} data={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`transactions.statuses.${s}`) }))} value={status} onChange={reset(setStatus)} clearable w={160} />
        <Select label={t('transactions.channel')} placeholder={t('transactions.any')} data={data?.channels ?? []} value={channel} onChange={reset(setChannel)} clearable w={160} />
        <Select
          label={t('transactions.type')}
          placeholder={t('transactions.any')}
          data={[
            { value: 'credit', label: t('transactions.credit') },
            { value: 'debit', label: t('transactions.debit') },
          ]}
          value={type}
          onChange={reset(setType)}
          clearable
          w={140}
        />
        <TextInput label={t('transactions.search')} value={input} onChange={(e) => reset(setInput)(e.currentTarget.value)} type="search" w={220} />
      </Group>
      {report.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {report.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {data && (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <StatCard label={t('transactions.count')} value={String(data.totals.count)} />
          <StatCard label={t('transactions.totalCredit')} value={rupees(data.totals.credit, lang)} color="green.8" />
          <StatCard label={t('transactions.totalDebit')} value={rupees(data.totals.debit, lang)} color="red.8" />
          <StatCard label={t('transactions.net')} value={rupees(data.totals.net, lang)} />
        </SimpleGrid>
      )}
      <Table.ScrollContainer minWidth={860}>
        <Table striped aria-label={t('transactions.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('transactions.date')}</Table.Th>
              <Table.Th>{t('transactions.transactionId')}</Table.Th>
              <Table.Th>{t('transactions.person')}</Table.Th>
              <Table.Th>{t('transactions.plan')}</Table.Th>
              <Table.Th>{t('transactions.channel')}</Table.Th>
              <Table.Th>{t('transactions.type')}</Table.Th>
              <Table.Th ta="right">{t('transactions.amount')}</Table.Th>
              <Table.Th>{t('transactions.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.data ?? []).map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(p.createdAt, 'dateTime', REPORT_TIME_ZONE)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{p.transactionId}</Table.Td>
                <Table.Td>{p.person ? `${p.person.n} (${p.person.m})` : '—'}</Table.Td>
                <Table.Td>{p.order?.plan ? (lang === 'hi' ? p.order.plan.name.hi : p.order.plan.name.en) : '—'}</Table.Td>
                <Table.Td>{p.channel}</Table.Td>
                <Table.Td>{p.isCredit ? t('transactions.credit') : t('transactions.debit')}</Table.Td>
                <Table.Td ta="right" c={p.isCredit ? undefined : 'red.8'}>
                  {rupees(p.isCredit ? p.amount : -p.amount, lang)}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATUS_COLOR[p.status] ?? 'gray'}>
                    {t(`transactions.statuses.${p.status}`)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {report.isSuccess && data?.data.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
