import { Alert, Button, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import type { NewPayoutAccount } from '../api/payouts';
import { type AccountErrorKey, accountBody, accountRules, type AccountValues, emptyAccount, fieldOfRefusal } from '../lib/payout-rules';

const FIELDS = ['supplierName', 'holderName', 'ifsc', 'accountNumber', 'accountNumberConfirm', 'vpa'] as const;

type Props = {
  /** Staff naming a campaign's supplier: the supplier's name comes first. */
  withSupplier?: boolean;
  title: string;
  /** Sends the account; a refusal is thrown as the ApiError and shown on its field. */
  onSubmit: (body: NewPayoutAccount & { supplierName?: string }) => Promise<void>;
};

/**
 * A bank account (holder, IFSC, the number twice) or a UPI id (docs/charity.md "Payout
 * accounts"). The rules are checked as the server checks them; the server's refusal of a field
 * (or the bank's) is shown under that field, any other above the button.
 */
export function PayoutAccountForm({ withSupplier = false, title, onSubmit }: Props) {
  const { t } = useTranslation(['payout', 'common']);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const errorText = (error: ReactNode) => (typeof error === 'string' && error.startsWith('form.errors.') ? t(`payout:${error as AccountErrorKey}`) : error);
  const form = useForm<AccountValues>({
    initialValues: emptyAccount(),
    validateInputOnBlur: true,
    validate: accountRules(withSupplier),
    enhanceGetInputProps: ({ inputProps }) => ({ error: errorText(inputProps.error) }),
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setRefusal(null);
    try {
      await onSubmit({ ...accountBody(values), ...(withSupplier && { supplierName: values.supplierName.trim() }) });
      form.setValues({ ...emptyAccount(), kind: values.kind });
      form.resetDirty();
    } catch (e) {
      const field = fieldOfRefusal(e, FIELDS);
      const msg = e instanceof ApiError ? e.msg : t('common:errors.someError');
      if (field) form.setFieldError(field, msg);
      else setRefusal(msg);
    } finally {
      setBusy(false);
    }
  });

  const bank = form.values.kind === 'BANK';
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', xs: 'md' }} component="form" onSubmit={submit} noValidate aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <SegmentedControl
          fullWidth
          aria-label={t('payout:form.kind')}
          data={[
            { value: 'VPA', label: t('payout:kind.VPA') },
            { value: 'BANK', label: t('payout:kind.BANK') },
          ]}
          {...form.getInputProps('kind')}
        />
        {withSupplier && <TextInput label={t('payout:form.supplierName')} description={t('payout:form.supplierHint')} withAsterisk maxLength={100} {...form.getInputProps('supplierName')} />}
        <TextInput label={t('payout:form.holderName')} description={t('payout:form.holderHint')} withAsterisk maxLength={100} autoComplete="name" {...form.getInputProps('holderName')} />
        {bank ? (
          <>
            <TextInput
              label={t('payout:form.ifsc')}
              description={t('payout:form.ifscHint')}
              withAsterisk
              maxLength={11}
              autoCapitalize="characters"
              {...form.getInputProps('ifsc')}
              onChange={(e) => form.setFieldValue('ifsc', e.currentTarget.value.toUpperCase())}
            />
            <TextInput label={t('payout:form.accountNumber')} withAsterisk inputMode="numeric" autoComplete="off" maxLength={18} {...form.getInputProps('accountNumber')} />
            <TextInput
              label={t('payout:form.accountNumberConfirm')}
              description={t('payout:form.accountNumberConfirmHint')}
              withAsterisk
              inputMode="numeric"
              autoComplete="off"
              maxLength={18}
              {...form.getInputProps('accountNumberConfirm')}
            />
          </>
        ) : (
          <TextInput label={t('payout:form.vpa')} description={t('payout:form.vpaHint')} withAsterisk maxLength={321} autoCapitalize="none" autoComplete="off" {...form.getInputProps('vpa')} />
        )}
        <Text size="xs" c="dimmed">
          {t('payout:form.verifyNote')}
        </Text>
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" data-testid="account-refused">
            {refusal}
          </Alert>
        )}
        <Button type="submit" loading={busy} fullWidth>
          {t('payout:form.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}
