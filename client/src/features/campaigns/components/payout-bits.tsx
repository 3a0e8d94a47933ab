import { Alert, Badge, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import type { PayoutAccount, PayoutAccountStatus, Withdrawal, WithdrawalStatus } from '../api/payouts';
import { useLang } from '../hooks/use-lang';
import { maskedAccount, nameDiffers } from '../lib/payout-rules';

const ACCOUNT_COLORS: Record<PayoutAccountStatus, string> = { PENDING: 'gray', VERIFIED: 'teal', FAILED: 'red' };

export function AccountStatusBadge({ status }: { status: PayoutAccountStatus }) {
  const { t } = useTranslation('payout');
  return (
    <Badge color={ACCOUNT_COLORS[status]} variant="light" data-testid="account-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

const WITHDRAWAL_COLORS: Record<WithdrawalStatus, string> = {
  REQUESTED: 'blue',
  APPROVED: 'indigo',
  PAYING: 'yellow',
  PAID: 'teal',
  FAILED: 'red',
  REJECTED: 'red',
  CANCELLED: 'gray',
};

export function WithdrawalStatusBadge({ status }: { status: WithdrawalStatus }) {
  const { t } = useTranslation('payout');
  return (
    <Badge color={WITHDRAWAL_COLORS[status]} variant="light" data-testid="withdrawal-status">
      {t(`wstatus.${status}`)}
    </Badge>
  );
}

/**
 * The bank's name for an account when it is not the holder's own, said plainly: the trustees must
 * confirm it before paying (docs/charity.md "Payout accounts": never silently accepted).
 */
export function NameMismatch({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation('payout');
  if (!nameDiffers(account)) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('account.mismatchTitle')} data-testid="name-mismatch">
      {t('account.mismatch', { registered: account.verifiedName, holder: account.supplierName ?? account.holderName })}
    </Alert>
  );
}

/** An account in a line or two: kind, masked number or UPI id, the holder (and supplier), the bank's name. */
export function AccountSummary({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation('payout');
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {maskedAccount(account)}
        </Text>
        <Text size="xs" c="dimmed">
          {t(`kind.${account.kind}`)}
        </Text>
      </Group>
      {account.supplierName && <Text size="sm">{t('account.supplier', { name: account.supplierName })}</Text>}
      <Text size="sm">{t('account.holder', { name: account.holderName })}</Text>
      {account.verifiedName && (
        <Text size="sm" c={nameDiffers(account) ? 'orange.8' : 'dimmed'} fw={nameDiffers(account) ? 600 : undefined}>
          {t('account.registeredName', { name: account.verifiedName })}
        </Text>
      )}
    </Stack>
  );
}

/** The amount and, when foreign money is in it, how it splits (docs/charity.md "Withdrawals": domestic first). */
export function WithdrawalAmount({ withdrawal }: { withdrawal: Pick<Withdrawal, 'amount' | 'fromDomestic' | 'fromForeign'> }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  return (
    <Stack gap={0}>
      <Text fw={700} size="lg">
        {formatPaise(withdrawal.amount, lang)}
      </Text>
      <Text size="xs" c="dimmed">
        {t('list.split', { domestic: formatPaise(withdrawal.fromDomestic, lang), foreign: formatPaise(withdrawal.fromForeign, lang) })}
      </Text>
    </Stack>
  );
}

/** Who approved so far, when, with their notes. */
export function Approvals({ withdrawal }: { withdrawal: Pick<Withdrawal, 'approvals'> }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  return (
    <Stack gap={2} data-testid="approvals">
      <Text size="sm" fw={600}>
        {t('list.approvals', { count: withdrawal.approvals.length })}
      </Text>
      {withdrawal.approvals.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('list.noApprovals')}
        </Text>
      ) : (
        withdrawal.approvals.map((a) => (
          <Text size="sm" key={`${a.by.id}-${a.at}`}>
            {t('list.approvedBy', { name: a.by.name, date: formatDate(a.at, lang, 'dateTime') })}
            {a.note ? ` — ${a.note}` : ''}
          </Text>
        ))
      )}
    </Stack>
  );
}

/** What became of it: due time (overdue flagged) while open; UTR when paid; the reason when rejected or failed. */
export function WithdrawalOutcome({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  const open = !['PAID', 'REJECTED', 'CANCELLED'].includes(withdrawal.status);
  return (
    <Stack gap={2}>
      {open && (
        <Group gap="xs">
          <Text size="sm">{t('list.due', { date: formatDate(withdrawal.dueAt, lang, 'dateTime') })}</Text>
          {withdrawal.overdue && (
            <Badge color="red" variant="filled" data-testid="overdue">
              {t('list.overdue')}
            </Badge>
          )}
        </Group>
      )}
      {withdrawal.status === 'PAID' && withdrawal.paidAt !== null && <Text size="sm">{t('list.paidAt', { date: formatDate(withdrawal.paidAt, lang, 'dateTime') })}</Text>}
      {withdrawal.utr && (
        <Text size="sm" data-testid="utr" style={{ overflowWrap: 'anywhere' }}>
          {t('list.utr', { utr: withdrawal.utr })}
        </Text>
      )}
      {withdrawal.status === 'REJECTED' && withdrawal.reason && (
        <Text size="sm" c="red.8" data-testid="reject-reason">
          {t('list.reason', { reason: withdrawal.reason })}
        </Text>
      )}
      {withdrawal.status === 'FAILED' && withdrawal.failure && (
        <Text size="sm" c="red.8" data-testid="failure">
          {t('list.failure', { failure: withdrawal.failure })}
        </Text>
      )}
    </Stack>
  );
}
