import { Anchor, Button, Container, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import type { Provider } from '@pm/protocol/payment';
import { paths } from '@/config/paths';
import { formatPaise } from '@/lib/payments/amount';
import { type Bought, usePaymentStatus } from '@/lib/payments/use-payment-status';
import { useLang } from '../hooks/use-lang';
import { donationReceiptPath } from '../lib/donation-paths';
import { campaignPath } from './campaign-page';

/**
 * A donation's outcome, where the provider sends the donor back (docs/payments.md "Where the
 * buyer comes back to"; the status is asked as the plans' confirmation page asks it). Paid: thanks,
 * the amount and the receipt's link; not paid: why, and a way back to donate again.
 */
export default function DonationConfirmationPage() {
  const [params] = useSearchParams();
  const orderId = params.get('merchantTransactionId');
  if (!orderId) return <Navigate to={paths.campaigns} replace />;
  const provider: Provider = params.get('provider') === 'razorpay' ? 'razorpay' : 'phonepe';
  const campaignId = params.get('campaign') ?? '';
  return <Confirmation key={`${provider}:${orderId}`} orderId={orderId} provider={provider} campaignId={campaignId} token={params.get('token')} />;
}

function Amount({ bought }: { bought: Bought }) {
  const lang = useLang();
  if (!bought) return null;
  return (
    <Text fw={600} fz="xl" data-testid="donation-amount">
      {formatPaise(bought.amount, lang)}
    </Text>
  );
}

function Confirmation({ orderId, provider, campaignId, token }: { orderId: string; provider: Provider; campaignId: string; token: string | null }) {
  const { t } = useTranslation('campaign');
  const { state, pending, cancelled, bought } = usePaymentStatus(provider, orderId);
  const back = campaignId ? campaignPath(campaignId) : paths.campaigns;
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
        {state === 1 && (
          <>
            <ThemeIcon size={64} radius="xl" color="teal" variant="light">
              <IconCircleCheck size={40} aria-hidden />
            </ThemeIcon>
            <div role="status">
              <Title order={1} size="h2" c="teal.8">
                {t('confirmation.thanks')}
              </Title>
            </div>
            <Amount bought={bought} />
            <Text>{t('confirmation.paidText')}</Text>
            <Group justify="center">
              <Button component={Link} to={donationReceiptPath(orderId, token)}>
                {t('confirmation.receipt')}
              </Button>
              <Button component={Link} to={back} variant="light">
                {t('confirmation.backToCampaign')}
              </Button>
            </Group>
          </>
        )}
        {state === -1 && (
          <>
            <ThemeIcon size={64} radius="xl" color={cancelled ? 'gray' : 'red'} variant="light">
              <IconCircleX size={40} aria-hidden />
            </ThemeIcon>
            <div role="status">
              <Title order={1} size="h2" c={cancelled ? 'gray.8' : 'red.8'}>
                {cancelled ? t('confirmation.cancelled') : t('confirmation.failed')}
              </Title>
            </div>
            <Amount bought={bought} />
            <Text c="dimmed">{cancelled ? t('confirmation.cancelledText') : t('confirmation.failedText')}</Text>
            <Group justify="center">
              {campaignId && (
                <Button component={Link} to={`${campaignPath(campaignId)}/donate`}>
                  {t('confirmation.tryAgain')}
                </Button>
              )}
              <Anchor component={Link} to={back}>
                {t('confirmation.backToCampaign')}
              </Anchor>
            </Group>
          </>
        )}
      </Stack>
    </Container>
  );
}
