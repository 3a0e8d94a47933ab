import { Alert, Anchor, Button, Center, Container, Divider, Grid, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconHeartHandshake, IconInfoCircle, IconMessageReport } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths, raiseGrievancePath } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { useCampaign } from '../api/campaigns';
import type { Campaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { useNow } from '../hooks/use-now';
import { donationBlock, pick } from '../lib/campaign-lib';
import { withdrawPath } from '../lib/payout-paths';
import { CampaignProgress, CauseBadge, StatusBadge } from './campaign-bits';
import { CampaignGallery, CampaignLedger, CampaignStory, CampaignUpdates, NeedBreakdown, RecentDonations } from './campaign-sections';
import { OfflineNote } from './offline-note';
import { ReportCampaign } from './report-campaign';
import { ShareCampaign } from './share-campaign';

export const campaignPath = (id: string) => `${paths.campaigns}/${encodeURIComponent(id)}`;

/**
 * Donate, only while the campaign takes donations (APPROVED, not ended, not held); otherwise why
 * not, in the reader's language, with the trustee's public reason of a pause or close beneath
 * (docs/charity.md "Moderation").
 */
export function DonateAction({ campaign }: { campaign: Pick<Campaign, 'id' | 'status' | 'endsAt' | 'takingDonations' | 'publicReason'> }) {
  const { t } = useTranslation('campaign');
  const block = donationBlock(campaign, useNow());
  if (block)
    return (
      <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="donate-blocked">
        {t(`donateBlocked.${block}`)}
        {campaign.publicReason && (
          <Text size="sm" mt={4} data-testid="public-reason">
            {t('donateBlocked.reason', { reason: campaign.publicReason })}
          </Text>
        )}
      </Alert>
    );
  return (
    <Button component={Link} to={`${campaignPath(campaign.id)}/donate`} size="md" fullWidth leftSection={<IconHeartHandshake size={18} aria-hidden />}>
      {t('detail.donate')}
    </Button>
  );
}

/**
 * What a visitor may do about a public campaign besides giving: report it (anyone, guests too),
 * or, signed in, raise a grievance about it (docs/charity.md "Grievances").
 */
function VisitorActions({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('campaign');
  const session = useSession();
  return (
    <Group gap="xs" wrap="wrap">
      <ReportCampaign campaignId={campaignId} />
      {session && (
        <Button component={Link} to={raiseGrievancePath('CAMPAIGN', campaignId)} variant="subtle" size="xs" leftSection={<IconMessageReport size={16} aria-hidden />}>
          {t('grievance.raise')}
        </Button>
      )}
    </Group>
  );
}

/** The whole campaign as a visitor reads it (also the trustee's queue shows it this way). */
export function CampaignView({ campaign, actions }: { campaign: Campaign; actions?: ReactNode }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const title = pick(campaign.title, lang);
  const url = typeof window === 'undefined' ? campaignPath(campaign.id) : `${window.location.origin}${campaignPath(campaign.id)}`;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="md">
          <Group gap="xs">
            <CauseBadge cause={campaign.cause} />
            <StatusBadge status={campaign.status} />
          </Group>
          <Title order={1} size="h2">
            {title}
          </Title>
          <CampaignGallery images={campaign.images} title={title} />
          <CampaignStory campaign={campaign} />
          <NeedBreakdown need={campaign.need} />
          <CampaignUpdates updates={campaign.updates ?? []} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="md">
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <CampaignProgress campaign={campaign} />
              {actions ?? <DonateAction campaign={campaign} />}
              <ShareCampaign title={title} url={url} />
            </Stack>
          </Paper>
          {!actions && <VisitorActions campaignId={campaign.id} />}
          <RecentDonations donations={campaign.recentDonations ?? []} />
          <Divider />
          <CampaignLedger ledger={campaign.ledger ?? []} />
          <Text size="xs" c="dimmed">
            {t('detail.trustNote')}
          </Text>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

const WITHDRAWS = new Set(['APPROVED', 'PAUSED', 'CLOSED']);

/** The owner's way from their public page to withdrawing (docs/charity.md "The withdrawal screens"). */
function OwnerWithdraw({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaign');
  const session = useSession();
  if (!session || session.id !== campaign.beneficiaryId || !WITHDRAWS.has(campaign.status)) return null;
  return (
    <Anchor component={Link} to={withdrawPath(campaign.id)} size="sm" fw={600} data-testid="owner-withdraw">
      {t('detail.ownerWithdraw')}
    </Anchor>
  );
}

/** A campaign's public page (docs/charity.md "API": GET /campaigns/:id). */
export default function CampaignPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaign(id);
  return (
    <Container size="lg" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={paths.campaigns} size="sm">
          {t('campaign:detail.back')}
        </Anchor>
        <OfflineNote />
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:detail.loadFailed')} role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : (
          <>
            <OwnerWithdraw campaign={query.data} />
            <CampaignView campaign={query.data} />
          </>
        )}
      </Stack>
    </Container>
  );
}
