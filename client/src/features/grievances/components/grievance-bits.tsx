import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GrievanceRow, GrievanceStatus } from '@pm/protocol/grievance';
import { formatDate } from '@/lib/intl-format';
import { useLang } from '../hooks/use-lang';
import { grievancePath, STATUS_COLORS } from '../lib/grievance-lib';

/**
 * A grievance's title as the reader's language says it: a campaign report's title is its reason
 * (the server stores it in English for the record), anything else the title its raiser wrote.
 */
export function grievanceTitle(g: Pick<GrievanceRow, 'title' | 'reportReason'>, t: TFunction<'grievance'>): string {
  return g.reportReason ? t(`reportTitles.${g.reportReason}`) : g.title;
}

export function GrievanceStatusBadge({ status }: { status: GrievanceStatus }) {
  const { t } = useTranslation('grievance');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="grievance-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** When the answer is due, or since when it is overdue (docs/charity.md "Grievances": one month). */
export function DueText({ row }: { row: Pick<GrievanceRow, 'status' | 'dueAt' | 'overdue'> }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  if (row.status === 'RESOLVED') return null;
  const date = formatDate(row.dueAt, lang, 'date');
  return (
    <Text size="xs" c={row.overdue ? 'red' : 'dimmed'} fw={row.overdue ? 600 : undefined} data-testid="grievance-due">
      {row.overdue ? t('overdue', { date }) : t('due', { date })}
    </Text>
  );
}

/** A grievance in a list: its number, title, what it is about, its status and due date; opens its thread. */
export function GrievanceCard({ row, showRaiser = false, footer }: { row: GrievanceRow; showRaiser?: boolean; footer?: ReactNode }) {
  const { t } = useTranslation('grievance');
  const lang = useLang();
  return (
    <Card withBorder padding="sm" data-testid="grievance-item">
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Anchor component={Link} to={grievancePath(row.id)} fw={600}>
            {grievanceTitle(row, t)}
          </Anchor>
          <GrievanceStatusBadge status={row.status} />
        </Group>
        <Text size="xs" c="dimmed">
          {row.number} · {row.reportReason ? t(`reportReasons.${row.reportReason}`) : t(`subjects.${row.subject}`)}
          {showRaiser && ` · ${row.raiser?.name ?? t('thread.guest')}`} · {formatDate(row.createdAt, lang, 'date')}
        </Text>
        <DueText row={row} />
        {footer}
      </Stack>
    </Card>
  );
}
