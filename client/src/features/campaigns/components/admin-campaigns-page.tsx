import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconStar } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { formatPaise } from '@/lib/payments/amount';
import { campaignKeys, setFeaturedCampaign, useCampaigns, useFeaturedCampaign } from '../api/campaigns';
import type { CampaignCard } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { withdrawPath } from '../lib/payout-paths';
import { StatusBadge } from './campaign-bits';
import { CampaignPayeesDialog } from './campaign-payees';
import { campaignPath } from './campaign-page';

type RowProps = { campaign: CampaignCard; featured: boolean; onFeature: (id: string) => void; onPayees: (c: CampaignCard) => void; busy: boolean };

function Row({ campaign, featured, onFeature, onPayees, busy }: RowProps) {
  const { t } = useTranslation(['campaign', 'payout']);
  const lang = useLang();
  return (
    <Card withBorder padding="sm" data-testid="admin-campaign">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} component={Link} to={campaignPath(campaign.id)}>
            {pick(campaign.title, lang)}
          </Text>
          <StatusBadge status={campaign.status} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('progress.raised', { raised: formatPaise(campaign.raised, lang), goal: formatPaise(campaign.goal, lang) })}
        </Text>
        <Group gap="xs">
          {featured ? (
            <Badge color="orange" leftSection={<IconStar size={12} aria-hidden />} data-testid="featured-badge">
              {t('admin.featured')}
            </Badge>
          ) : (
            campaign.status === 'APPROVED' && (
              <Button size="xs" variant="light" color="orange" onClick={() => onFeature(campaign.id)} loading={busy}>
                {t('admin.feature')}
              </Button>
            )
          )}
          <Button size="xs" variant="light" onClick={() => onPayees(campaign)}>
            {t('payout:payees.open')}
          </Button>
          <Button component={Link} to={withdrawPath(campaign.id)} size="xs" variant="subtle" color="teal">
            {t('payout:payees.withdraw')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The back office's campaigns (staff, CREATE_CAMPAIGN; docs/charity.md "Who does what"): the
 * public campaigns, which one the home page's third slide opens (PUT /campaign/featured), and a
 * draft on a beneficiary's behalf, and each campaign's supplier payees and withdrawals
 * (docs/charity.md "The withdrawal screens").
 */
export default function AdminCampaignsPage() {
  const { t } = useTranslation(['campaign', 'common']);
  const client = useQueryClient();
  const list = useCampaigns({ page: 1, size: 100, sort: 'newest' });
  const featured = useFeaturedCampaign();
  const [busy, setBusy] = useState<string | null>(null);
  const [payees, setPayees] = useState<CampaignCard | null>(null);
  const lang = useLang();
  const feature = async (id: string) => {
    setBusy(id);
    try {
      await setFeaturedCampaign(id);
      await client.invalidateQueries({ queryKey: campaignKeys.featured });
      notifySuccess(t('campaign:admin.featuredDone'));
    } catch {
      // The fetch wrapper has shown the server's reason.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('campaign:admin.title')}</Title>
        <Button component={Link} to={`${paths.myCampaigns}/new`} size="sm">
          {t('campaign:admin.newDraft')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('campaign:admin.intro')}
      </Text>
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common:actions.loading')} />
        </Center>
      ) : list.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:list.loadFailed')} role="alert">
          {list.error instanceof ApiError ? list.error.msg : t('common:errors.someError')}
        </Alert>
      ) : list.data.data.length === 0 ? (
        <Text>{t('campaign:list.empty')}</Text>
      ) : (
        list.data.data.map((c) => <Row key={c.id} campaign={c} featured={featured.data?.id === c.id} onFeature={(id) => void feature(id)} onPayees={setPayees} busy={busy === c.id} />)
      )}
      {payees && <CampaignPayeesDialog campaignId={payees.id} title={pick(payees.title, lang)} onClose={() => setPayees(null)} />}
    </Stack>
  );
}
