import { Alert, Anchor, Button, Container, Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DonationReceipt, DonationView } from '@pm/protocol/donation';
import { paths, raiseGrievancePath } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { useDonation, useDonationReceipt } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { donationTokenOf } from '../lib/donation-paths';
import { campaignPath } from './campaign-page';
import { DonationFigures, DonationStatusBadge, isOpenDonation } from './donation-bits';
import classes from '@/components/printed-receipt.module.css';
import { QueryState } from '@/components/query-state';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The trust's lines of the receipt's head: what docs/charity.md "Receipts" prints of the trust settings. */
function TrustHead({ trust }: { trust: DonationReceipt['trust'] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Stack gap={2} align="center" ta="center">
      <Title order={2} size="h3">
        {pick(trust.name, lang)}
      </Title>
      {trust.address && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
          {trust.address}
        </Text>
      )}
      {trust.registrationNo && <Text size="xs">{t('receipt.registration', { value: trust.registrationNo })}</Text>}
      {trust.pan && <Text size="xs">{t('receipt.trustPan', { value: trust.pan })}</Text>}
      {trust.approval80g && <Text size="xs">{t('receipt.approval80G', { value: trust.approval80g })}</Text>}
    </Stack>
  );
}

/** The receipt as docs/charity.md "Receipts" lists it: the trust, the donor, the amount in figures and words, the mode, the date. */
function ReceiptSheet({ receipt, orderId }: { receipt: DonationReceipt; orderId: string }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} className={classes.sheet} data-testid="donation-receipt">
      <Stack gap="md">
        <TrustHead trust={receipt.trust} />
        <Divider />
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4">
            {t('receipt.title')}
          </Title>
          <Text fw={600} data-testid="receipt-no">
            {receipt.receiptNo}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('receipt.financialYear', { fy: receipt.financialYear })}
        </Text>
        {receipt.sandbox && (
          <Alert color="orange" variant="outline" title={t('receipt.sandbox')}>
            {t('receipt.sandboxNote')}
          </Alert>
        )}
        <dl className={classes.rows}>
          <Row label={t('receipt.date')}>{formatDate(receipt.paidAt, lang, 'dateTime')}</Row>
          <Row label={t('receipt.donor')}>{receipt.donor.name}</Row>
          {receipt.donor.address && <Row label={t('receipt.address')}>{receipt.donor.address}</Row>}
          {receipt.donor.pan && <Row label={t('receipt.pan')}>{receipt.donor.pan}</Row>}
          <Row label={t('receipt.campaign')}>{pick(receipt.campaign.title, lang)}</Row>
          <Row label={t('receipt.amount')}>
            <strong>{formatPaise(receipt.amount, lang)}</strong>
            <div data-testid="amount-in-words">{pick(receipt.amountInWords, lang)}</div>
          </Row>
          <Row label={t('receipt.mode')}>{receipt.mode}</Row>
          <Row label={t('receipt.orderId')}>{orderId}</Row>
        </dl>
        <Divider />
        <Text size="xs" c="dimmed">
          {t('receipt.noGoods')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The donation as its donor follows it: the campaign, the status, the split, the dates. Not printed. */
function DonationSummary({ donation }: { donation: DonationView }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const session = useSession();
  return (
    <Paper withBorder radius="md" p="md" className={classes.noPrint} data-testid="donation-summary">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={1} size="h3">
            {t('donation.title')}
          </Title>
          <DonationStatusBadge status={donation.status} />
        </Group>
        <Anchor component={Link} to={campaignPath(donation.campaign.id)} fw={500}>
          {pick(donation.campaign.title, lang)}
        </Anchor>
        <Text size="sm" c="dimmed">
          {t('donation.started', { date: formatDate(donation.createdAt, lang, 'dateTime') })}
        </Text>
        <DonationFigures donation={donation} />
        {isOpenDonation(donation) && <Text size="sm">{t('donation.open')}</Text>}
        {/* A signed-in donor's way to the trust about this donation (docs/charity.md "Grievances"); a guest signs in first. */}
        {session && (
          <Anchor component={Link} to={raiseGrievancePath('DONATION', donation.orderId)} size="sm" data-testid="raise-grievance">
            {t('grievance.raise')}
          </Anchor>
        )}
        {!isOpenDonation(donation) && donation.receiptNo === null && (
          <Group gap="sm">
            <Text size="sm">{t('donation.notPaid')}</Text>
            <Button component={Link} to={`${campaignPath(donation.campaign.id)}/donate`} size="xs" variant="light">
              {t('confirmation.tryAgain')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Receipt({ orderId, token }: { orderId: string; token: string | null }) {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useDonationReceipt(orderId, token);
  if (query.isPending) return <Loader aria-label={t('common:actions.loading')} />;
  if (query.isError)
    return (
      <Alert color="red" variant="light" title={t('campaign:receipt.loadFailed')} role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
      </Alert>
    );
  return (
    <>
      <Group justify="flex-end" className={classes.noPrint}>
        <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          {t('campaign:receipt.print')}
        </Button>
      </Group>
      <ReceiptSheet receipt={query.data} orderId={orderId} />
    </>
  );
}

/**
 * A donation's page (docs/charity.md "API", the donation's token): its status and, once paid, its
 * printable receipt. It opens for the donor signed in, or for whoever holds the token: the
 * receipt e-mail's link is this address, /donations/:orderId?t=<token>.
 */
export default function DonationPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation(['campaign', 'common']);
  const token = donationTokenOf(orderId, params.get('t'));
  const query = useDonation(orderId, token);
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={query.data ? campaignPath(query.data.campaign.id) : paths.campaigns} className={classes.noPrint}>
          {t('campaign:receipt.back')}
        </Anchor>
        <QueryState query={query} failedTitle={t('campaign:donation.loadFailed')}>
          {(donation) => (
            <>
              <DonationSummary donation={donation} />
              {donation.receiptNo !== null && <Receipt orderId={orderId} token={token} />}
            </>
          )}
        </QueryState>
      </Stack>
    </Container>
  );
}
