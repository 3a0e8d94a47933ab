import { Alert, Anchor, Button, Center, Container, Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Receipt } from '@pm/protocol/payment';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useReceipt } from '../api/get-receipt';
import { formatPaise } from '@/lib/payments/amount';
import { formatDateTime } from '../lib/dates';
import classes from '@/components/printed-receipt.module.css';

type Lang = 'en' | 'hi';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function ReceiptSheet({ receipt, lang }: { receipt: Receipt; lang: Lang }) {
  const { t } = useTranslation('plan');
  const provider = receipt.provider === 'phonepe' || receipt.provider === 'razorpay' ? t(`providers.${receipt.provider}`) : receipt.provider;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} className={classes.sheet} data-testid="receipt">
      <Stack gap="md">
        <Stack gap={2} align="center" ta="center">
          <Title order={1} size="h3">
            {/* A receipt kept offline from before the Hindi name was sent has the English one only. */}
            {lang === 'hi' && receipt.trust.nameHi ? receipt.trust.nameHi : receipt.trust.name}
          </Title>
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {receipt.trust.address}
          </Text>
        </Stack>
        <Divider />
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4">
            {t('receipt.title')}
          </Title>
          <Text fw={600}>{t('receipt.numberValue', { no: receipt.receiptNo })}</Text>
        </Group>
        {/* No money moved (docs/security.md, "Production that cannot be fooled"): said above the details, and printed. */}
        {receipt.sandbox && (
          <Alert color="orange" variant="outline" title={t('receipt.sandbox')} data-testid="receipt-sandbox">
            {t('receipt.sandboxNote')}
          </Alert>
        )}
        <dl className={classes.rows}>
          <Row label={t('receipt.date')}>{formatDateTime(receipt.paidAt, lang)}</Row>
          <Row label={t('receipt.receivedFrom')}>{receipt.buyer.name}</Row>
          {receipt.buyer.mobile && <Row label={t('receipt.mobile')}>{receipt.buyer.mobile}</Row>}
          <Row label={t('receipt.plan')}>{receipt.plan ? receipt.plan.name[lang] : t('myPlan.donation')}</Row>
          <Row label={t('receipt.amount')}>
            <strong>{formatPaise(receipt.amount, lang)}</strong>
          </Row>
          <Row label={t('receipt.paidVia')}>{provider}</Row>
          <Row label={t('receipt.transactionId')}>{receipt.transactionId ?? '—'}</Row>
          <Row label={t('receipt.orderId')}>{receipt.orderId}</Row>
        </dl>
        <Divider />
        <Text size="xs" c="dimmed">
          {t('receipt.note')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** A paid order's receipt (docs/payments.md "Receipts"), in the interface language, printable. */
export default function ReceiptPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation(['plan', 'common']);
  const lang: Lang = (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
  const query = useReceipt(id);
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Group justify="space-between" className={classes.noPrint}>
          <Anchor component={Link} to={paths.profile}>
            {t('plan:receipt.back')}
          </Anchor>
          {query.isSuccess && (
            <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
              {t('plan:receipt.print')}
            </Button>
          )}
        </Group>
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" title={t('plan:receipt.loadFailed')}>
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : (
          <ReceiptSheet receipt={query.data} lang={lang} />
        )}
      </Stack>
    </Container>
  );
}
