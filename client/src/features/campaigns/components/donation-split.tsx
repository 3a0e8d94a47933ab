import { Alert, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { formatPaise } from '@/lib/payments/amount';
import { useDonationQuote } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { sharePercent } from '../lib/donation-rules';

/**
 * The split before paying (docs/charity.md "The split"), from the server's quote to the paisa:
 * the amount, the trust's share and what reaches the campaign, with the terms' words about the share.
 * A donor without an Indian passport sees their own: a foreign contribution's, the share capped
 * (docs/charity.md "Foreign contributions").
 */
export function DonationSplit({ campaignId, rupees, indianPassport = true }: { campaignId: string; rupees: number | null; indianPassport?: boolean }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const quote = useDonationQuote(campaignId, rupees, indianPassport);
  if (rupees === null) return null;
  return (
    <Paper withBorder radius="md" p="md" aria-live="polite" data-testid="donation-split">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('donate.split.title')}
        </Title>
        {quote.isPending && <Loader size="sm" aria-label={t('donate.split.loading')} />}
        {quote.isError && (
          <Alert color="red" variant="light" role="alert">
            {quote.error instanceof ApiError ? quote.error.msg : t('donate.split.failed')}
          </Alert>
        )}
        {quote.isSuccess && (
          <>
            <Table fz="sm" verticalSpacing={4} withRowBorders={false}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row">{t('donate.split.amount')}</Table.Th>
                  <Table.Td ta="right">{formatPaise(quote.data.amount, lang)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">{t('donate.split.share', { percent: sharePercent(quote.data) })}</Table.Th>
                  <Table.Td ta="right">{formatPaise(quote.data.share, lang)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">{t('donate.split.toCampaign')}</Table.Th>
                  <Table.Td ta="right" fw={700}>
                    {formatPaise(quote.data.toCampaign, lang)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {quote.data.foreign && (
              <Text size="xs" data-testid="donation-split-foreign">
                {t('donate.split.foreign', { cap: quote.data.trust.fcShareCapBps / 100 })}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {t('donate.split.terms', { percent: sharePercent(quote.data) })}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
