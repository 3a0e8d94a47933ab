import { Alert, Anchor, Button, Center, Container, Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { type DonationReceipt, useDonationReceipt } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { type Lang, pick } from '../lib/campaign-lib';
import { campaignPath } from './campaign-page';
import classes from './receipt.module.css';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

const words = (w: DonationReceipt['amountInWords'], lang: Lang) => (typeof w === 'string' ? w : w ? pick(w, lang) : null);

/** The receipt as docs/charity.md "Receipts" lists it: the trust, the donor, the amount in figures and words, the mode, the date. */
function ReceiptSheet({ receipt }: { receipt: DonationReceipt }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const inWords = words(receipt.amountInWords, lang);
  const trustName = lang === 'hi' && receipt.trust.nameHi ? receipt.trust.nameHi : receipt.trust.name;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} className={classes.sheet} data-testid="donation-receipt">
      <Stack gap="md">
        <Stack gap={2} align="center" ta="center">
          <Title order={1} size="h3">
            {trustName}
          </Title>
          {receipt.trust.address && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {receipt.trust.address}
            </Text>
          )}
          {receipt.trust.registration && <Text size="xs">{t('receipt.registration', { value: receipt.trust.registration })}</Text>}
          {receipt.trust.pan && <Text size="xs">{t('receipt.trustPan', { value: receipt.trust.pan })}</Text>}
          {receipt.trust.approval80G && <Text size="xs">{t('receipt.approval80G', { value: receipt.trust.approval80G })}</Text>}
        </Stack>
        <Divider />
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4">
            {t('receipt.title')}
          </Title>
          <Text fw={600}>{receipt.receiptNo}</Text>
        </Group>
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
          {receipt.campaign && <Row label={t('receipt.campaign')}>{pick(receipt.campaign.title, lang)}</Row>}
          <Row label={t('receipt.amount')}>
            <strong>{formatPaise(receipt.amount, lang)}</strong>
            {inWords && <div>{inWords}</div>}
          </Row>
          {receipt.mode && <Row label={t('receipt.mode')}>{receipt.mode}</Row>}
          <Row label={t('receipt.orderId')}>{receipt.orderId}</Row>
        </dl>
        <Divider />
        <Text size="xs" c="dimmed">
          {t('receipt.noGoods')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** A donation's receipt (docs/charity.md "Receipts"): the donor signed in, or the e-mailed link's token. */
export default function DonationReceiptPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation(['campaign', 'common']);
  const query = useDonationReceipt(orderId, params.get('token') ?? undefined);
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Group justify="space-between" className={classes.noPrint}>
          <Anchor component={Link} to={query.data?.campaign ? campaignPath(query.data.campaign.id) : paths.campaigns}>
            {t('campaign:receipt.back')}
          </Anchor>
          {query.isSuccess && (
            <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
              {t('campaign:receipt.print')}
            </Button>
          )}
        </Group>
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" title={t('campaign:receipt.loadFailed')} role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : (
          <ReceiptSheet receipt={query.data} />
        )}
      </Stack>
    </Container>
  );
}
