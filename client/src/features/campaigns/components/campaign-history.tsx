import { Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/intl-format';
import type { HistoryStep } from '../api/types';
import { useLang } from '../hooks/use-lang';

/** A campaign's history (docs/charity.md "A campaign"): each move with who, when, and the reason or answer. */
export function CampaignHistory({ history }: { history: readonly HistoryStep[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  if (history.length === 0) return null;
  return (
    <Timeline bulletSize={12} lineWidth={2} active={history.length - 1} data-testid="campaign-history">
      {history.map((step, i) => (
        <Timeline.Item key={i} title={t(`status.${step.to}`)}>
          <Text size="xs" c="dimmed">
            {formatDate(step.at, lang, 'dateTime')}
            {step.byName ? ` · ${step.byName}` : ''}
          </Text>
          {step.reason && <Text size="sm">{t('mine.reason', { reason: step.reason })}</Text>}
          {step.note && <Text size="sm">{t('mine.note', { note: step.note })}</Text>}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
