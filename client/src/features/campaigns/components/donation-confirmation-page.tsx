import { Alert, Anchor, Button, Container, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { DonationView } from '@pm/protocol/donation';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatPaise } from '@/lib/payments/amount';
import { type StatusCheck, useOrderOutcome } from '@/lib/payments/use-payment-status';
import { getDonation } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { donationPath, donationTokenOf } from '../lib/donation-paths';
import { campaignPath } from './campaign-page';

/**
 * A donation's outcome, where the provider sends the donor back (docs/charity.md "API": GET
 * /donation/:orderId?t, which asks the provider while the order is open; docs/payments.md "Where
 * the buyer comes back to"). Paid: thanks, the amount, the receipt number and the donation's
 * page with its printable receipt; not paid: why, and a way back to donate again.
 */
export default function DonationConfirmationPage() {
  const [params] = useSearchParams();
  // `merchantTransactionId`: the order's own return address, as a plan's (payments.service confirmationUrl).
  const orderId = params.get('orderId') ?? params.get('merchantTransactionId');
  if (!orderId) return <Navigate to={paths.campaigns} replace />;
  return <Confirmation key={orderId} orderId={orderId} token={donationTokenOf(orderId, params.get('t'))} />;
}

function Paid({ donation, token }: { donation: DonationView; token: string | null }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <>
      <ThemeIcon size={64} radius="xl" color="teal" variant="light">
        <IconCircleCheck size={40} aria-hidden />
      </ThemeIcon>
      <div role="status">
        <Title order={1} size="h2" c="teal.8">
          {t('confirmation.thanks')}
        </Title>
      </div>
      <Text fw={600} fz="xl" data-testid="donation-amount">
        {formatPaise(donation.amount, lang)}
      </Text>
      <Text size="sm">{t('confirmation.reaches', { amount: formatPaise(donation.toCampaign, lang) })}</Text>
      {donation.receiptNo && (
        <Text fw={500} data-testid="donation-receipt-no">
          {t('confirmation.receiptNo', { no: donation.receiptNo })}
        </Text>
      )}
      <Text>{t('confirmation.paidText')}</Text>
      <Group justify="center">
        <Button component={Link} to={donationPath(donation.orderId, token)}>
          {t('confirmation.receipt')}
        </Button>
        <Button component={Link} to={campaignPath(donation.campaign.id)} variant="light">
          {t('confirmation.backToCampaign')}
        </Button>
      </Group>
    </>
  );
}

function NotPaid({ donation, cancelled }: { donation: DonationView | null; cancelled: boolean }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <>
      <ThemeIcon size={64} radius="xl" color={cancelled ? 'gray' : 'red'} variant="light">
        <IconCircleX size={40} aria-hidden />
      </ThemeIcon>
      <div role="status">
        <Title order={1} size="h2" c={cancelled ? 'gray.8' : 'red.8'}>
          {cancelled ? t('confirmation.cancelled') : t('confirmation.failed')}
        </Title>
      </div>
      {donation && (
        <Text fw={600} fz="xl" data-testid="donation-amount">
          {formatPaise(donation.amount, lang)}
        </Text>
      )}
      <Text c="dimmed">{cancelled ? t('confirmation.cancelledText') : t('confirmation.failedText')}</Text>
      <Group justify="center">
        {donation && (
          <Button component={Link} to={`${campaignPath(donation.campaign.id)}/donate`}>
            {t('confirmation.tryAgain')}
          </Button>
        )}
        <Anchor component={Link} to={donation ? campaignPath(donation.campaign.id) : paths.campaigns}>
          {donation ? t('confirmation.backToCampaign') : t('detail.back')}
        </Anchor>
      </Group>
    </>
  );
}

function Confirmation({ orderId, token }: { orderId: string; token: string | null }) {
  const { t } = useTranslation('campaign');
  // A donation the server does not show this caller (a wrong or missing token: 404) is said as such, not as a failed payment.
  const [unknown, setUnknown] = useState<string | null>(null);
  const ask = async (): Promise<StatusCheck<DonationView>> => {
    try {
      const answer = await getDonation(orderId, token);
      return { paid: answer.success, status: answer.data.status, data: answer.data };
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setUnknown(e.msg);
      throw e;
    }
  };
  const { state, pending, cancelled, data } = useOrderOutcome(`donation:${orderId}`, ask);
  return (
    <Container size="xs" py="xl">
      <Stack align="center" gap="md" ta="center">
        {state === 0 && (
          <>
            <Loader size="lg" aria-label={t('confirmation.verifying')} />
            <Text fw={500} role="status">
              {pending ? t('confirmation.pending') : t('confirmation.verifying')}
            </Text>
          </>
        )}
        {state === 1 && data && <Paid donation={data} token={token} />}
        {state === -1 &&
          (unknown ? (
            <Alert color="red" variant="light" title={t('donation.loadFailed')} role="alert">
              {unknown}
            </Alert>
          ) : (
            <NotPaid donation={data} cancelled={cancelled} />
          ))}
      </Stack>
    </Container>
  );
}
