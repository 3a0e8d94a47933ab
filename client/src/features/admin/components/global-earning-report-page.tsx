import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Group, Loader, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EARNING_ACCOUNTS } from '@pm/protocol/report';
import { useGlobalEarnings } from '../api/get-global-earnings';
import { checkRange, type DayRange, lastDays, rupees } from '../lib/report-range';
import { DateRangeField } from './date-range-field';
import { StatCard } from './stat-card';

/**
 * /global-earning-report: successful payments by day or month — collected, refunded, the share
 * kept for gateway, bank and running costs (6 percent, docs/admin.md "What the reports count") and what goes to the trust.
 */
export default function GlobalEarningReportPage() {
  const { t, i18n } = useTranslation(['admin-shop', 'admin']);
  const lang = i18n.language;
  const [range, setRange] = useState<DayRange>(() => lastDays(90));
  const [groupBy, setGroupBy] = useState<'day' | 'month'>('day');
  const check = checkRange(range);
  const report = useGlobalEarnings(check.ok ? { startDate: check.startDate, endDate: check.endDate } : null, groupBy);
  const data = report.data;
  return (
    <Stack>
      <Title order={2}>{t('earnings.title')}</Title>
      <Group align="flex-end" wrap="wrap">
        <DateRangeField value={range} onChange={setRange} />
        <SegmentedControl
          aria-label={t('earnings.groupBy')}
          value={groupBy}
          onChange={(v) => setGroupBy(v as 'day' | 'month')}
          data={[
            { value: 'day', label: t('earnings.byDay') },
            { value: 'month', label: t('earnings.byMonth') },
          ]}
        />
      </Group>
      {report.isFetching && <Loader size="sm" aria-label={t('admin:common.loading')} />}
      {report.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {check.ok && data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            <StatCard label={t('earnings.collected')} value={rupees(data.totals.collected, lang)} color="green.8" />
            <StatCard label={t('earnings.refunded')} value={rupees(data.totals.refunded, lang)} color="red.8" />
            <StatCard label={t('earnings.retained', { percent: data.retainedPercent })} value={rupees(data.totals.retained, lang)} />
            <StatCard label={t('earnings.toTrust')} value={rupees(data.totals.toTrust, lang)} color="indigo.8" />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {t('earnings.note', { percent: data.retainedPercent })}
          </Text>
          {data.rows.length > 0 ? (
            <BarChart
              h={240}
              data={data.rows.map((r) => ({ period: r.period, [t('earnings.collected')]: r.collected, [t('earnings.retainedShort')]: r.retained }))}
              dataKey="period"
              series={[
                { name: t('earnings.collected'), color: 'green.6' },
                { name: t('earnings.retainedShort'), color: 'orange.5' },
              ]}
              valueFormatter={(v) => rupees(v, lang)}
              withLegend
            />
          ) : (
            <Text c="dimmed">{t('admin:common.noData')}</Text>
          )}
          <Table.ScrollContainer minWidth={620}>
            <Table striped aria-label={t('earnings.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('earnings.period')}</Table.Th>
                  <Table.Th ta="right">{t('earnings.payments')}</Table.Th>
                  <Table.Th ta="right">{t('earnings.collected')}</Table.Th>
                  <Table.Th ta="right">{t('earnings.refunded')}</Table.Th>
                  <Table.Th ta="right">{t('earnings.retainedShort')}</Table.Th>
                  <Table.Th ta="right">{t('earnings.toTrust')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rows.map((r) => (
                  <Table.Tr key={r.period}>
                    <Table.Td>{r.period}</Table.Td>
                    <Table.Td ta="right">{r.count}</Table.Td>
                    <Table.Td ta="right">{rupees(r.collected, lang)}</Table.Td>
                    <Table.Td ta="right">{rupees(r.refunded, lang)}</Table.Td>
                    <Table.Td ta="right">{rupees(r.retained, lang)}</Table.Td>
                    <Table.Td ta="right">{rupees(r.toTrust, lang)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Title order={3} size="h4">
            {t('earnings.byAccountTitle')}
          </Title>
          <Table striped aria-label={t('earnings.byAccountTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('earnings.account')}</Table.Th>
                <Table.Th ta="right">{t('earnings.amount')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {EARNING_ACCOUNTS.map((k) => (
                <Table.Tr key={k}>
                  <Table.Td>{t(`earnings.accounts.${k}`)}</Table.Td>
                  <Table.Td ta="right">{rupees(data.byAccount[k], lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
