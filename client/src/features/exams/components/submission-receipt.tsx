import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockHour4, IconInfoCircle } from '@tabler/icons-react';
import { encodeQR } from 'qr';
import { type ReactNode, useCallback, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { receiptQrText, shortReceipt } from '@pm/protocol/receipt';
import type { ReplicaDatabase } from '@/db/core/database';
import { type Receipt, receipt$ } from '@/db/attempts/receipts';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import classes from './submission-receipt.module.css';
import { formatDate } from '@/lib/intl-format';

/**
 * The receipt's QR code as one SVG path drawn from the module matrix of `qr` (no markup strings
 * injected into the page). The quiet zone of 4 modules is part of the matrix.
 */
function ReceiptQr({ text, label }: { text: string; label: string }) {
  const { size, d } = useMemo(() => {
    const m = encodeQR(text, 'raw', { ecc: 'medium', border: 4 });
    let path = '';
    m.forEach((row, y) => row.forEach((dark, x) => dark && (path += `M${x} ${y}h1v1h-1z`)));
    return { size: m.length, d: path };
  }, [text]);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={200} height={200} shapeRendering="crispEdges" className={classes.qr} data-testid="receipt-qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

type Check = 'match' | 'mismatch' | 'waiting' | 'none';
const CHECK_ICON: Record<Check, ReactNode> = {
  match: <IconCircleCheck size={18} aria-hidden />,
  mismatch: <IconAlertTriangle size={18} aria-hidden />,
  waiting: <IconClockHour4 size={18} aria-hidden />,
  none: <IconInfoCircle size={18} aria-hidden />,
};
const CHECK_TEXT = { match: 'match', mismatch: 'mismatch', none: 'serverNone' } as const;

/** Why the check waits: offline, on the server's result, or on a live test's result time. */
function waitingText(t: TFunction<'receipt'>, online: boolean, resultsOpenAt: string | undefined): string {
  if (!online) return t('waitingOffline');
  return resultsOpenAt ? t('waitingLive', { time: resultsOpenAt }) : t('waitingOnline');
}

/**
 * The submission receipt of an attempt (docs/exams.md "Submission receipt"): the set, the submission time by this
 * device's clock and by the server clock as estimated here, and the receipt code as text and as
 * a QR code — kept on the device, so it shows offline and after a reload. Once the result is in,
 * the server's own code (computed over the submission as it arrived) is shown beside it, and
 * whether the two match is said in words.
 * `serverReceipt`: undefined while no result from the server is on the device; null for a result
 * the server holds no receipt for. `resultsOpenAt`: a live test's result time (formatted) while
 * the server holds its results back — the server's code comes with the result, so the check waits
 * for it (docs/live-tests.md "Live tests").
 */
export function SubmissionReceipt({ attemptId, serverReceipt, resultsOpenAt }: { attemptId: string; serverReceipt: string | null | undefined; resultsOpenAt?: string }) {
  const { t, i18n } = useTranslation('receipt');
  const query = useCallback((db: ReplicaDatabase) => receipt$(db, attemptId), [attemptId]);
  const { data: receipt, loading } = useReplicaQuery<Receipt | null>(query);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  if (loading) return null;

  if (!receipt) {
    // Submitted elsewhere, or before receipts: the server's code alone, when there is one.
    if (!serverReceipt) return null;
    return (
      <Card withBorder radius="md" padding="lg" data-testid="submission-receipt">
        <Title order={3} size="h4" mb="xs">
          {t('title')}
        </Title>
        <Text size="sm">{t('noDeviceReceipt')}</Text>
        <Text size="sm" c="dimmed" mt="xs">
          {t('serverCode')}
        </Text>
        <Text className={classes.code} data-testid="server-receipt-code">
          {shortReceipt(serverReceipt)}
        </Text>
      </Card>
    );
  }

  const code = shortReceipt(receipt.hash);
  const check: Check = serverReceipt === undefined ? 'waiting' : serverReceipt === null ? 'none' : serverReceipt === receipt.hash ? 'match' : 'mismatch';
  return (
    <Card withBorder radius="md" padding="lg" data-testid="submission-receipt" className={classes.card}>
      <Title order={3} size="h4" mb="xs">
        {t('title')}
      </Title>
      <Text size="sm" mb="sm">
        {t('intro')}
      </Text>
      <Group align="flex-start" justify="space-between" wrap="wrap" gap="lg">
        <Stack gap="xs" className={classes.facts}>
          <dl className={classes.rows}>
            <div>
              <dt>{t('set')}</dt>
              <dd data-testid="receipt-set">{receipt.setLabel}</dd>
            </div>
            <div>
              <dt>{t('deviceTime')}</dt>
              <dd data-testid="receipt-device-time">{formatDate(receipt.deviceAt, i18n.language, 'dateTimeSeconds')}</dd>
            </div>
            <div>
              <dt>{t('serverTime')}</dt>
              <dd data-testid="receipt-server-time">{formatDate(receipt.serverAt, i18n.language, 'dateTimeSeconds')}</dd>
            </div>
            <div>
              <dt>{t('attempt')}</dt>
              <dd className={classes.small}>{receipt.attemptId}</dd>
            </div>
          </dl>
          <div>
            <Text size="sm" c="dimmed">
              {t('code')}
            </Text>
            <Text className={classes.code} data-testid="receipt-code">
              {code}
            </Text>
          </div>
          {serverReceipt && (
            <div>
              <Text size="sm" c="dimmed">
                {t('serverCode')}
              </Text>
              <Text className={classes.code} data-testid="server-receipt-code">
                {shortReceipt(serverReceipt)}
              </Text>
            </div>
          )}
          <p className={classes.check} data-testid="receipt-check" data-state={check}>
            {CHECK_ICON[check]}
            <span>{check === 'waiting' ? waitingText(t, online, resultsOpenAt) : t(CHECK_TEXT[check])}</span>
          </p>
        </Stack>
        <ReceiptQr text={receiptQrText({ attemptId: receipt.attemptId, qsid: receipt.qsid, submittedAt: receipt.serverAt, hash: receipt.hash })} label={t('qrLabel', { code })} />
      </Group>
    </Card>
  );
}
