import { Anchor, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { type Provider, SUCCESS_REDIRECT_S } from '@pm/protocol/payment';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { rememberRedirect } from '@/lib/session';
import { useCheckout } from '../hooks/use-checkout';
import { formatPaise } from '@/lib/payments/amount';
import { type Bought, usePaymentStatus } from '@/lib/payments/use-payment-status';
import { safeRedirectPath } from '../lib/redirect';
import { PaymentFailureImage, PaymentSuccessImage } from './payment-illustration';

/**
 * The payment's outcome (docs/payments.md "Where the buyer comes back to"). The provider's hosted page sends the
 * learner back here with merchantTransactionId (required, else the root) and redirection_url
 * (default '/', and only a path of this site is followed).
 */
export default function PaymentConfirmationPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const location = useLocation();
  const orderId = params.get('merchantTransactionId');
  if (!orderId) return <Navigate to={paths.home} replace />;
  // The route is public; asking for the order's status needs the buyer.
  if (!session) {
    rememberRedirect(location.pathname + location.search);
    return <Navigate to={paths.login} replace />;
  }
  const provider: Provider = params.get('provider') === 'razorpay' ? 'razorpay' : 'phonepe';
  return <Confirmation key={`${provider}:${orderId}`} orderId={orderId} provider={provider} redirectTo={safeRedirectPath(params.get('redirection_url'))} />;
}

function Confirmation({ orderId, provider, redirectTo }: { orderId: string; provider: Provider; redirectTo: string }) {
  const { t } = useTranslation(['plan', 'common']);
  const { state, pending, cancelled, bought } = usePaymentStatus(provider, orderId);

  return (
    <Container size="xs" py="xl">
      <Stack align="center" gap="md" ta="center">
        {state === 0 && (
          <>
            <Loader size="lg" aria-label={t('plan:confirmation.verifying')} />
            <Text fw={500} role="status">
              {pending ? t('plan:confirmation.pending') : t('plan:confirmation.verifying')}
            </Text>
          </>
        )}
        {state === 1 && <Success orderId={orderId} redirectTo={redirectTo} bought={bought} />}
        {state === -1 && <Failure orderId={orderId} cancelled={cancelled} bought={bought} />}
      </Stack>
    </Container>
  );
}

/** The plan (its name in the interface language) or the donation, and its amount. */
function WhatWasBought({ bought }: { bought: Bought }) {
  const { t, i18n } = useTranslation('plan');
  if (!bought) return null;
  const lang = (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
  const what = bought.plan ? t('confirmation.planBought', { plan: bought.plan.name[lang] || bought.plan.name.en }) : t('myPlan.donation');
  return (
    <Text fw={500} data-testid="confirmation-bought">
      {what} · {formatPaise(bought.amount, lang)}
    </Text>
  );
}

/** docs/glossary.md "Fixed values": success redirects after 6 seconds, or at once on 'Click here...'. */
function Success({ orderId, redirectTo, bought }: { orderId: string; redirectTo: string; bought: Bought }) {
  const { t } = useTranslation('plan');
  const navigate = useNavigate();
  const [seconds, setSeconds] = useState(SUCCESS_REDIRECT_S);
  useEffect(() => {
    if (seconds <= 0) {
      void navigate(redirectTo, { replace: true });
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds, navigate, redirectTo]);
  return (
    <>
      <PaymentSuccessImage label={t('confirmation.successImage')} />
      <div role="status">
        <Title order={1} size="h2" c="teal.8">
          {t('confirmation.success')}
        </Title>
      </div>
      <WhatWasBought bought={bought} />
      <Text>{t('confirmation.redirecting', { seconds: Math.max(seconds, 0) })}</Text>
      <Group justify="center">
        <Button onClick={() => void navigate(redirectTo, { replace: true })}>{t('confirmation.clickHere')}</Button>
        <Button component={Link} to={`${paths.receipt}/${encodeURIComponent(orderId)}`} variant="light">
          {t('confirmation.receipt')}
        </Button>
      </Group>
    </>
  );
}

/**
 * Failure shows 'Payment failed' and does not redirect; the learner may retry. A payment
 * the payer cancelled at the provider says so instead (docs/payments.md, "Cancelled payments").
 */
function Failure({ orderId, cancelled, bought }: { orderId: string; cancelled: boolean; bought: Bought }) {
  const { t } = useTranslation('plan');
  const { busy, retry } = useCheckout();
  return (
    <>
      <PaymentFailureImage label={cancelled ? t('confirmation.cancelledImage') : t('confirmation.failureImage')} />
      <div role="status">
        <Title order={1} size="h2" c={cancelled ? 'gray.8' : 'red.8'}>
          {cancelled ? t('confirmation.cancelled') : t('confirmation.failed')}
        </Title>
      </div>
      <WhatWasBought bought={bought} />
      <Text c="dimmed">{cancelled ? t('confirmation.cancelledText') : t('confirmation.failedText')}</Text>
      <Group justify="center">
        <Button leftSection={<IconRefresh size={16} aria-hidden />} loading={busy !== null} onClick={() => void retry(orderId)}>
          {t('confirmation.retry')}
        </Button>
        <Anchor component={Link} to={paths.plan}>
          {t('confirmation.plans')}
        </Anchor>
      </Group>
    </>
  );
}
