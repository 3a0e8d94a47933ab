import { Alert, Anchor, Button, Center, Checkbox, Container, Group, Loader, NativeSelect, Paper, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type GetInputPropsReturnType, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { MOBILE_PREFIX } from '@pm/protocol/common';
import { COUNTRY_CODES, type DonationStart } from '@pm/protocol/donation';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import type { HandOverOutcome } from '@/lib/payments/hand-over';
import type { Session } from '@/lib/session';
import { useCampaign } from '../api/campaigns';
import { startDonation } from '../api/donations';
import type { Campaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { useNow } from '../hooks/use-now';
import { donationBlock, pick } from '../lib/campaign-lib';
import { handOverDonation } from '../lib/donation-hand-over';
import { countryOptions, type DonationErrorKey, donationRules, type DonationValues, mobileDigits, parseRupees } from '../lib/donation-rules';
import { CampaignProgress } from './campaign-bits';
import { campaignPath, DonateAction } from './campaign-page';
import { DonationSplit } from './donation-split';

/** What the donor is told when the hand-over to the provider stops here (null: nothing, or already said). */
const HAND_OVER_MESSAGES: Record<HandOverOutcome, 'donate.amountMin' | 'donate.failed' | 'donate.checkoutUnavailable' | 'donate.paymentFailedRetry' | null> = {
  away: null,
  amount: 'donate.amountMin',
  'no-checkout': 'donate.failed',
  'checkout-unavailable': 'donate.checkoutUnavailable',
  closed: null,
  'initiate-failed': 'donate.paymentFailedRetry',
  refused: null,
};

/** Prefilled for a signed-in donor (name, e-mail, mobile); a guest fills them in. */
function initialValues(session: Session | null): DonationValues {
  return {
    amount: '',
    name: session?.name ?? '',
    email: session?.email ?? '',
    mobile: mobileDigits(session?.mobile ?? ''),
    indianPassport: '',
    pan: '',
    address: '',
    country: '',
    anonymous: false,
  };
}

/** The form's values as POST /donation takes them (docs/charity.md "API"). */
export function donationBody(campaignId: string, v: DonationValues): DonationStart {
  return {
    campaignId,
    amount: parseRupees(v.amount) ?? 0,
    name: v.name.trim(),
    email: v.email.trim(),
    mobile: `${MOBILE_PREFIX}${v.mobile}`,
    indianPassport: v.indianPassport === 'yes',
    ...(v.pan.trim() && { pan: v.pan.trim().toUpperCase() }),
    ...(v.address.trim() && { address: v.address.trim() }),
    // Only a donor without an Indian passport names a country (docs/charity.md "Foreign contributions").
    ...(v.indianPassport === 'no' && v.country && { country: v.country }),
    anonymous: v.anonymous,
  };
}

/** Where a donor without an Indian passport lives: asked only of them, the countries by name in the reader's language. */
function CountryField({ inputProps }: { inputProps: GetInputPropsReturnType }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const options = useMemo(() => countryOptions(COUNTRY_CODES, lang), [lang]);
  return <NativeSelect label={t('donate.country')} description={t('donate.countryHint')} withAsterisk data={[{ value: '', label: t('donate.countryChoose') }, ...options]} {...inputProps} />;
}

function DonationFormView({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation(['campaign', 'common']);
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const errorText = (error: ReactNode) => (typeof error === 'string' && error ? t(`campaign:${error as DonationErrorKey}`) : error);
  const form = useForm<DonationValues>({
    initialValues: initialValues(session),
    validateInputOnBlur: true,
    validate: donationRules,
    enhanceGetInputProps: ({ inputProps }) => ({ error: errorText(inputProps.error) }),
  });
  const typed = parseRupees(form.values.amount);
  const [rupees] = useDebouncedValue(typed !== null && donationRules.amount(form.values.amount) === null ? typed : null, 400);

  const pay = form.onSubmit(async (values) => {
    setBusy(true);
    setRefusal(null);
    let away = false;
    try {
      const started = await startDonation(donationBody(campaign.id, values));
      const outcome = await handOverDonation(started, {
        payer: { id: session?.id, name: values.name, email: values.email, mobile: values.mobile },
        signedIn: session !== null,
        goTo: (path) => void navigate(path),
      });
      const message = HAND_OVER_MESSAGES[outcome];
      if (message) notifyError(t(`campaign:${message}`));
      away = outcome === 'away';
    } catch (e) {
      // The server's refusal (the campaign closed, the foreign-contribution rule, a field) is
      // shown above the Pay button, where the donor is looking.
      setRefusal(e instanceof ApiError ? e.msg : t('campaign:donate.failed'));
    } finally {
      if (!away) setBusy(false);
    }
  });

  const mobile = form.getInputProps('mobile');
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={pay} noValidate aria-label={t('campaign:donate.formLabel')}>
      <Stack gap="sm">
        <TextInput
          label={t('campaign:donate.amount')}
          description={t('campaign:donate.amountHint')}
          withAsterisk
          inputMode="decimal"
          leftSection={<Text span>₹</Text>}
          {...form.getInputProps('amount')}
        />
        <DonationSplit campaignId={campaign.id} rupees={rupees} indianPassport={form.values.indianPassport !== 'no'} />
        <TextInput label={t('campaign:donate.name')} withAsterisk autoComplete="name" maxLength={100} {...form.getInputProps('name')} />
        <TextInput label={t('campaign:donate.email')} description={t('campaign:donate.emailHint')} withAsterisk type="email" autoComplete="email" {...form.getInputProps('email')} />
        <TextInput
          label={t('campaign:donate.mobile')}
          withAsterisk
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          leftSection={<Text span size="sm">{MOBILE_PREFIX}</Text>}
          leftSectionWidth={44}
          {...mobile}
          onChange={(e) => form.setFieldValue('mobile', mobileDigits(e.currentTarget.value))}
        />
        <Radio.Group label={t('campaign:donate.passport')} withAsterisk {...form.getInputProps('indianPassport')}>
          <Group gap="lg" mt={4}>
            <Radio value="yes" label={t('campaign:donate.yes')} />
            <Radio value="no" label={t('campaign:donate.no')} />
          </Group>
        </Radio.Group>
        {form.values.indianPassport === 'no' && (
          <>
            <Alert color="yellow" variant="light" data-testid="foreign-donor-note">
              {t('campaign:donate.foreignNote')}
            </Alert>
            <CountryField inputProps={form.getInputProps('country')} />
          </>
        )}
        <Text size="sm" fw={600} mt="xs">
          {t('campaign:donate.receiptTitle')}
        </Text>
        <Text size="xs" c="dimmed" mt={-8}>
          {t('campaign:donate.receiptHint')}
        </Text>
        <TextInput
          label={t('campaign:donate.pan')}
          description={t('campaign:donate.panHint')}
          maxLength={10}
          autoCapitalize="characters"
          {...form.getInputProps('pan')}
          onChange={(e) => form.setFieldValue('pan', e.currentTarget.value.toUpperCase())}
        />
        <Textarea label={t('campaign:donate.address')} autosize minRows={2} maxLength={500} autoComplete="street-address" {...form.getInputProps('address')} />
        <Checkbox label={t('campaign:donate.anonymous')} {...form.getInputProps('anonymous', { type: 'checkbox' })} />
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert" data-testid="donation-refused">
            {refusal}
          </Alert>
        )}
        <Button type="submit" size="md" loading={busy} fullWidth>
          {t('campaign:donate.pay')}
        </Button>
        <Text size="xs" c="dimmed">
          {t('campaign:donate.noRefund')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Donating to a campaign (docs/charity.md "API": GET /donation/quote, POST /donation), then the payment step plans use. */
export default function DonatePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['campaign', 'common']);
  const lang = useLang();
  const query = useCampaign(id);
  const now = useNow();
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={campaignPath(id)} size="sm">
          {t('campaign:donate.back')}
        </Anchor>
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:detail.loadFailed')} role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : (
          <>
            <Stack gap={4}>
              <Title order={1} size="h2">
                {t('campaign:donate.title')}
              </Title>
              <Text fw={500}>{pick(query.data.title, lang)}</Text>
            </Stack>
            <CampaignProgress campaign={query.data} />
            {donationBlock(query.data, now) ? <DonateAction campaign={query.data} /> : <DonationFormView campaign={query.data} />}
          </>
        )}
      </Stack>
    </Container>
  );
}
