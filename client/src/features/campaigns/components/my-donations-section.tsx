import { Alert, Anchor, Card, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DonationView } from '@pm/protocol/donation';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { useMyDonations } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { donationPath } from '../lib/donation-paths';
import { DonationStatusBadge } from './donation-bits';

function MyDonation({ donation }: { donation: DonationView }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Card withBorder padding="sm" data-testid="my-donation">
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Text fw={600}>{pick(donation.campaign.title, lang)}</Text>
          <DonationStatusBadge status={donation.status} />
        </Group>
        <Text size="sm">
          {formatPaise(donation.amount, lang)} · <Text span c="dimmed">{formatDate(donation.paidAt ?? donation.createdAt, lang, 'dateLong')}</Text>
        </Text>
        <Anchor component={Link} to={donationPath(donation.orderId)} size="sm">
          <Group gap={4} wrap="nowrap" component="span">
            <IconReceipt size={16} aria-hidden />
            {donation.receiptNo ? t('myDonations.receipt', { no: donation.receiptNo }) : t('myDonations.open')}
          </Group>
        </Anchor>
      </Stack>
    </Card>
  );
}

/**
 * The signed-in person's donations on their profile (docs/charity.md "API": GET /donation/mine),
 * newest first, each leading to its page and receipt. The app layer lends it to the profile page.
 */
export default function MyDonationsSection() {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useMyDonations();
  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md" component="section" aria-labelledby="my-donations">
      <Stack gap="sm">
        <Title order={2} size="h4" id="my-donations">
          {t('campaign:myDonations.title')}
        </Title>
        {query.isPending ? (
          <Loader size="sm" aria-label={t('common:actions.loading')} />
        ) : query.isError ? (
          <Alert color="red" variant="light" role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : query.data.length === 0 ? (
          <Text size="sm">
            {t('campaign:myDonations.none')}{' '}
            <Anchor component={Link} to={paths.campaigns}>
              {t('campaign:myDonations.seeCampaigns')}
            </Anchor>
          </Text>
        ) : (
          query.data.map((d) => <MyDonation key={d.orderId} donation={d} />)
        )}
      </Stack>
    </Paper>
  );
}
