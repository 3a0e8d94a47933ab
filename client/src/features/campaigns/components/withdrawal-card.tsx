import { Card, Divider, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/intl-format';
import type { Withdrawal } from '../api/payouts';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { AccountSummary, Approvals, NameMismatch, WithdrawalAmount, WithdrawalOutcome, WithdrawalStatusBadge } from './payout-bits';

/**
 * One withdrawal as everyone who may see it reads it (docs/charity.md "The withdrawal screens"):
 * status, amount and its split, what it pays for, the payee with the bank's name (a mismatch
 * flagged), approvals so far, the due time or what became of it. `withCampaign` names the
 * campaign (the trustee's queue); `actions` are the moves the reader may make.
 */
export function WithdrawalCard({ withdrawal, withCampaign = false, actions }: { withdrawal: Withdrawal; withCampaign?: boolean; actions?: ReactNode }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  return (
    <Card withBorder padding="sm" data-testid="withdrawal" data-status={withdrawal.status} data-overdue={withdrawal.overdue || undefined}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <WithdrawalAmount withdrawal={withdrawal} />
          <WithdrawalStatusBadge status={withdrawal.status} />
        </Group>
        {withCampaign && <Text fw={600}>{pick(withdrawal.campaignTitle, lang)}</Text>}
        <Text size="sm" c="dimmed">
          {t('list.requestedBy', { name: withdrawal.requester.name, date: formatDate(withdrawal.createdAt, lang, 'dateTime') })}
        </Text>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('list.purpose')}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {pick(withdrawal.purpose, lang)}
          </Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('list.payee')}
          </Text>
          <AccountSummary account={withdrawal.payee} />
        </Stack>
        <NameMismatch account={withdrawal.payee} />
        <Approvals withdrawal={withdrawal} />
        <WithdrawalOutcome withdrawal={withdrawal} />
        {actions && (
          <>
            <Divider />
            {actions}
          </>
        )}
      </Stack>
    </Card>
  );
}
