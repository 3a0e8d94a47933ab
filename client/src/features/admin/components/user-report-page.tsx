import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUsersByDate } from '../api/get-users-by-date';
import { checkRange, type DayRange, lastDays } from '../lib/report-range';
import { DateRangeField } from './date-range-field';
import { StatCard } from './stat-card';

/** Admin: User report — signups per day and per referrer over a date range. */
export default function UserReportPage() {
  const { t } = useTranslation(['admin-content', 'admin']);
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const check = checkRange(range);
  const report = useUsersByDate(check.ok ? { startDate: check.startDate, endDate: check.endDate } : null);
  const data = report.data;
  return (
    <Stack>
      <Title order={2}>{t('users.title')}</Title>
      <DateRangeField value={range} onChange={setRange} />
      {report.isFetching && <Loader size="sm" aria-label={t('admin:common.loading')} />}
      {report.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {check.ok && data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            <StatCard label={t('users.total')} value={String(data.total)} />
            <StatCard label={t('users.days')} value={String(data.byDay.length)} />
            <StatCard label={t('users.referrers')} value={String(data.byReferrer.filter((r) => r.referrer).length)} />
          </SimpleGrid>
          {data.byDay.length > 0 ? (
            <BarChart h={220} data={data.byDay.map((d) => ({ day: d.day.slice(5), [t('users.signups')]: d.count }))} dataKey="day" series={[{ name: t('users.signups'), color: 'indigo.5' }]} />
          ) : (
            <Text c="dimmed">{t('users.none')}</Text>
          )}
          {data.byReferrer.length > 0 && (
            <Table.ScrollContainer minWidth={360}>
              <Table striped aria-label={t('users.byReferrer')}>
                <Table.Caption>{t('users.byReferrer')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('users.referrer')}</Table.Th>
                    <Table.Th ta="right">{t('users.signups')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.byReferrer.map((r) => (
                    <Table.Tr key={r.referrer?.id ?? 'none'}>
                      <Table.Td>{r.referrer ? `${r.referrer.n} (${r.referrer.m})` : t('users.noReferrer')}</Table.Td>
                      <Table.Td ta="right">{r.count}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      )}
    </Stack>
  );
}
