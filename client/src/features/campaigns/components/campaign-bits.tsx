import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPaise } from '@/lib/payments/amount';
import type { CampaignCard, CampaignStatus, Cause } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { useNow } from '../hooks/use-now';
import { daysLeft, progressPercent } from '../lib/campaign-lib';

const STATUS_COLORS: Record<CampaignStatus, string> = {
  DRAFT: 'gray',
  SUBMITTED: 'blue',
  APPROVED: 'teal',
  REFUSED: 'red',
  PAUSED: 'yellow',
  CLOSED: 'dark',
};

export function StatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation('campaign');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid="campaign-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

export function CauseBadge({ cause }: { cause: Cause }) {
  const { t } = useTranslation('campaign');
  return (
    <Badge color="indigo" variant="outline">
      {t(`cause.${cause}`)}
    </Badge>
  );
}

/** Raised of the goal as a bar and in words, the donors and the days left (or that it has ended). */
export function CampaignProgress({ campaign }: { campaign: Pick<CampaignCard, 'raised' | 'goal' | 'donors' | 'endsAt'> }) {
  const { t } = useTranslation('campaign');
  const now = useNow();
  const lang = useLang();
  const percent = progressPercent(campaign.raised, campaign.goal);
  const days = daysLeft(campaign.endsAt, now);
  const raisedText = t('progress.raised', { raised: formatPaise(campaign.raised, lang), goal: formatPaise(campaign.goal, lang) });
  return (
    <Stack gap={6}>
      <Progress value={percent} color="teal" size="md" radius="xl" aria-label={t('progress.label', { percent })} />
      <Text size="sm" fw={600} data-testid="campaign-raised">
        {raisedText}
      </Text>
      <Group gap="md" justify="space-between">
        <Text size="sm" c="dimmed">
          {t('progress.donors', { count: campaign.donors })}
        </Text>
        <Text size="sm" c="dimmed">
          {days > 0 ? t('progress.daysLeft', { count: days }) : t('progress.ended')}
        </Text>
      </Group>
    </Stack>
  );
}
