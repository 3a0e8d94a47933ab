import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Badge, Card, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrdersByDate } from '../api/get-orders-by-date';
import { checkRange, type DayRange, lastDays, REPORT_TIME_ZONE, rupees } from '../lib/report-range';
import { DateRangeField } from './date-range-field';
import { StatCard } from './stat-card';
import { useFormatDate } from '@/hooks/use-format-date';

const STATUS_COLOR: Record<string, string> = { PAID: 'green', CREATED: 'gray', FAILED: 'red', CANCELLED: 'orange', REFUNDED: 'grape' };

/**
 * Admin: Dashboard — the Sale Report card: a date-range picker with 'Invalid start
 * date' / 'Invalid end date', GET /api/report/getOrdersByDate, shown as totals, a chart by day
 * and a table of the orders. The money is what the ledger says moved (docs/admin.md, "What the
 * reports count"): an order's own amount is only in the table.
 */
export function SaleReportCard() {
  const { t, i18n } = useTranslation(['admin-dashboard', 'admin']);
  const lang = i18n.language;
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const check = checkRange(range);
  const report = useOrdersByDate(check.ok ? { startDate: check.startDate, endDate: check.endDate } : null);
  const data = report.data;
  const locale = lang === 'hi' ? 'hi-IN' : 'en-IN';
  const fmtCount = new Intl.NumberFormat(locale);
  // A report day is a calendar date ('YYYY-MM-DD', India time): read and shown as that date in UTC so no time zone moves it.
  const formatDate = useFormatDate();
  // The server's days are India's calendar days as YYYY-MM-DD: drawn as that day, whatever the device's zone.
  const dayLabel = (day: string) => formatDate(Date.parse(`${day}T00:00:00Z`), 'dayMonth', 'UTC');

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="sale-report-title">
      <Stack>
        <Title order={3} id="sale-report-title">
          {t('sale.title')}
        </Title>
        <DateRangeField value={range} onChange={setRange} />
        {report.isFetching && <Loader size="sm" aria-label={t('admin:common.loading')} />}
        {report.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
        {check.ok && data && (
          <>
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
              <StatCard label={t('sale.orders')} value={fmtCount.format(data.totals.count)} />
              <StatCard label={t('sale.paidOrders')} value={fmtCount.format(data.totals.paidCount)} />
              <StatCard label={t('sale.collected')} value={rupees(data.totals.collected, lang)} />
              <StatCard label={t('sale.refunded')} value={rupees(data.totals.refunded, lang)} />
              <StatCard label={t('sale.net')} value={rupees(data.totals.net, lang)} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('sale.moneyNote')}
            </Text>
            {data.byDay.length > 0 ? (
              <div role="figure" aria-label={t('sale.chart')}>
                <BarChart
                  h={220}
                  data={data.byDay.map((d) => ({ day: dayLabel(d.day), [t('sale.collected')]: d.collected, [t('sale.refunded')]: d.refunded }))}
                  dataKey="day"
                  series={[
                    { name: t('sale.collected'), color: 'green.6' },
                    { name: t('sale.refunded'), color: 'grape.5' },
                  ]}
                  valueFormatter={(v) => rupees(v, lang)}
                  withLegend
                />
              </div>
            ) : (
              <Text c="dimmed">{t('sale.none')}</Text>
            )}
            {data.orders.length > 0 && (
              <Table.ScrollContainer minWidth={560} mah={360}>
                <Table striped stickyHeader aria-label={t('sale.table')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('sale.date')}</Table.Th>
                      <Table.Th>{t('sale.person')}</Table.Th>
                      <Table.Th>{t('sale.plan')}</Table.Th>
                      <Table.Th ta="right">{t('sale.orderAmount')}</Table.Th>
                      <Table.Th>{t('sale.status')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.orders.map((o) => (
                      <Table.Tr key={o.id}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(o.createdAt, 'dateTime', REPORT_TIME_ZONE)}</Table.Td>
                        <Table.Td>{o.person ? `${o.person.n} (${o.person.m})` : '—'}</Table.Td>
                        <Table.Td>{o.plan ? (lang === 'hi' ? o.plan.name.hi : o.plan.name.en) : '—'}</Table.Td>
                        <Table.Td ta="right">{rupees(o.amount, lang)}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={STATUS_COLOR[o.status] ?? 'gray'}>
                            {t(`sale.statuses.${o.status}`)}
                          </Badge>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
