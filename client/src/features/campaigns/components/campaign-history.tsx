import { Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/intl-format';
import type { CampaignEvent } from '../api/types';
import { useLang } from '../hooks/use-lang';

/**
 * A campaign's history (docs/charity.md "A campaign"): each step with who and when, and the
 * refusal's reason or the note given with it (a resubmission's answer).
 */
export function CampaignHistory({ history }: { history: readonly CampaignEvent[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  if (history.length === 0) return null;
  return (
    <Timeline bulletSize={12} lineWidth={2} active={history.length - 1} data-testid="campaign-history">
      {history.map((step) => (
        <Timeline.Item key={step.id} title={t(`status.${step.to}`)}>
          <Text size="xs" c="dimmed">
            {formatDate(step.at, lang, 'dateTime')}
            {step.actor?.name ? ` · ${step.actor.name}` : ''}
          </Text>
          {step.note && <Text size="sm">{step.action === 'refuse' ? t('mine.reason', { reason: step.note }) : t('mine.note', { note: step.note })}</Text>}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
