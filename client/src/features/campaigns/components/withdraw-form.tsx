import { Alert, Anchor, Button, Card, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { type PayoutAccount, payoutKeys, requestWithdrawal, type Withdrawable, type Withdrawal } from '../api/payouts';
import { useLang } from '../hooks/use-lang';
import { type AmountErrorKey, fieldOfRefusal, maskedAccount, rupeesTextToPaise, withdrawalAmountError } from '../lib/payout-rules';
import { payoutAccountsPath } from '../lib/payout-paths';

/** The four figures of GET /campaign/:id/withdrawable, in rupees. */
export function WithdrawableFigures({ figures }: { figures: Withdrawable }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  const rows: [string, number][] = [
    [t('withdraw.domestic'), figures.domestic],
    [t('withdraw.foreign'), figures.foreign],
    [t('withdraw.held'), figures.held],
    [t('withdraw.available'), figures.available],
  ];
  return (
    <SimpleGrid cols={2} spacing="xs" data-testid="withdrawable">
      {rows.map(([label, paise]) => (
        <Card key={label} withBorder padding="xs">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700}>{formatPaise(paise, lang)}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

type Values = { amount: string; purposeEn: string; purposeHi: string; payoutAccountId: string | null };
type ErrorKey = AmountErrorKey | 'withdraw.errors.purpose' | 'withdraw.errors.payee';

const label = (a: PayoutAccount) => `${a.supplierName ?? a.holderName} — ${maskedAccount(a)}`;

/** What the request became: its amount, payee and due time (48 working hours: docs/charity.md "Withdrawals"). */
function Sent({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation('payout');
  const lang = useLang();
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} aria-hidden />} title={t('withdraw.sentTitle')} data-testid="withdrawal-sent">
      {t('withdraw.sent', { amount: formatPaise(withdrawal.amount, lang), payee: label(withdrawal.payee), due: formatDate(withdrawal.dueAt, lang, 'dateTime') })}
    </Alert>
  );
}

/**
 * The request: an amount in rupees (sent as paise), what it pays for (English, Hindi optional)
 * and a verified payee (docs/charity.md "Withdrawals"). The server's refusal (more than the
 * campaign can withdraw, the update first, foreign money to another payee) is shown on its field
 * or above the button.
 */
export function WithdrawForm({ campaignId, figures, payees }: { campaignId: string; figures: Withdrawable; payees: readonly PayoutAccount[] }) {
  const { t } = useTranslation(['payout', 'common']);
  const lang = useLang();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [sent, setSent] = useState<Withdrawal | null>(null);
  const errorText = (error: ReactNode) => (typeof error === 'string' && error.startsWith('withdraw.errors.') ? t(`payout:${error as ErrorKey}`) : error);
  const form = useForm<Values>({
    initialValues: { amount: '', purposeEn: '', purposeHi: '', payoutAccountId: payees.length === 1 ? payees[0]!.id : null },
    validateInputOnBlur: true,
    validate: {
      amount: (v) => withdrawalAmountError(v, figures.available),
      purposeEn: (v) => (v.trim() ? null : 'withdraw.errors.purpose'),
      payoutAccountId: (v) => (v ? null : 'withdraw.errors.payee'),
    },
    enhanceGetInputProps: ({ inputProps }) => ({ error: errorText(inputProps.error) }),
  });

  const submit = form.onSubmit(async (v) => {
    setBusy(true);
    setRefusal(null);
    setSent(null);
    try {
      const hi = v.purposeHi.trim();
      const answer = await requestWithdrawal(campaignId, {
        amount: rupeesTextToPaise(v.amount) ?? 0,
        purpose: { en: v.purposeEn.trim(), ...(hi && { hi }) },
        payoutAccountId: v.payoutAccountId ?? '',
      });
      setSent(answer.data);
      form.reset();
      await client.invalidateQueries({ queryKey: payoutKeys.all });
    } catch (e) {
      const field = fieldOfRefusal(e, ['amount', 'purpose', 'payoutAccountId'] as const);
      const msg = e instanceof ApiError ? e.msg : t('common:errors.someError');
      if (field) form.setFieldError(field === 'purpose' ? 'purposeEn' : field, msg);
      else setRefusal(msg);
    } finally {
      setBusy(false);
    }
  });

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', xs: 'md' }} component="form" onSubmit={submit} noValidate aria-label={t('payout:withdraw.formLabel')}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('payout:withdraw.formLabel')}
        </Title>
        {sent && <Sent withdrawal={sent} />}
        <TextInput
          label={t('payout:withdraw.amount')}
          description={t('payout:withdraw.amountHint', { max: formatPaise(figures.available, lang) })}
          withAsterisk
          inputMode="decimal"
          leftSection={<Text span>₹</Text>}
          {...form.getInputProps('amount')}
        />
        <Textarea label={t('payout:withdraw.purposeEn')} withAsterisk autosize minRows={2} maxLength={500} {...form.getInputProps('purposeEn')} />
        <Textarea label={t('payout:withdraw.purposeHi')} autosize minRows={2} maxLength={500} lang="hi" {...form.getInputProps('purposeHi')} />
        {payees.length === 0 ? (
          <Alert color="yellow" variant="light" data-testid="no-payee">
            {t('payout:withdraw.noPayee')}{' '}
            <Anchor component={Link} to={payoutAccountsPath}>
              {t('payout:withdraw.addAccount')}
            </Anchor>
          </Alert>
        ) : (
          <Select
            label={t('payout:withdraw.payee')}
            placeholder={t('payout:withdraw.payeePlaceholder')}
            withAsterisk
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data={payees.map((a) => ({ value: a.id, label: label(a) }))}
            {...form.getInputProps('payoutAccountId')}
          />
        )}
        <Text size="xs" c="dimmed">
          {t('payout:withdraw.foreignNote')}
        </Text>
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" data-testid="withdrawal-refused">
            {refusal}
          </Alert>
        )}
        <Button type="submit" loading={busy} disabled={payees.length === 0} fullWidth>
          {t('payout:withdraw.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
