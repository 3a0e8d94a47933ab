import { Accordion, Alert, Button, Card, Center, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBuildingBank, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { formatPaise } from '@/lib/payments/amount';
import { useCampaign, useMyCampaigns } from '../api/campaigns';
import type { Campaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { payoutAccountsPath, withdrawPath } from '../lib/payout-paths';
import { CampaignProgress, StatusBadge } from './campaign-bits';
import { editorPath } from './campaign-editor-page';
import { CampaignHistory } from './campaign-history';
import { campaignPath } from './campaign-page';
import { MyMoney } from './my-money';
import { PostUpdateDialog } from './post-update-dialog';

const EDITABLE = new Set(['DRAFT', 'REFUSED']);
const PUBLIC = new Set(['APPROVED', 'PAUSED', 'CLOSED']);

/** What the caller's campaigns have raised together, from how many donations, and how many are open. */
function Totals({ campaigns }: { campaigns: readonly Campaign[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const raised = campaigns.reduce((s, c) => s + c.raised, 0);
  const donors = campaigns.reduce((s, c) => s + c.donors, 0);
  const open = campaigns.filter((c) => c.status === 'APPROVED').length;
  const figures: [string, string][] = [
    [t('mine.totalRaised'), formatPaise(raised, lang)],
    [t('mine.totalDonors'), String(donors)],
    [t('mine.totalOpen'), String(open)],
  ];
  return (
    <SimpleGrid cols={3} spacing="xs" data-testid="my-campaign-totals">
      {figures.map(([label, value]) => (
        <Card key={label} withBorder padding="xs">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700}>{value}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The history is read with the whole campaign (GET /campaigns/:id), once it is opened. */
function History({ id }: { id: string }) {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaign(id);
  if (query.isPending) return <Loader size="sm" aria-label={t('common:actions.loading')} />;
  if (query.isError) return <Text size="sm">{query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}</Text>;
  return <CampaignHistory history={query.data.history ?? []} />;
}

function MyCampaignCard({ campaign, onUpdate }: { campaign: Campaign; onUpdate: (id: string) => void }) {
  const { t } = useTranslation(['campaign', 'payout']);
  const lang = useLang();
  const [historyOpen, setHistoryOpen] = useState(false);
  return (
    <Card withBorder radius="md" padding="md" data-testid="my-campaign">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} size="h4">
            {pick(campaign.title, lang) || t('mine.untitled')}
          </Title>
          <StatusBadge status={campaign.status} />
        </Group>
        {campaign.status === 'REFUSED' && campaign.reason && (
          <Alert color="red" variant="light" title={t('mine.refusedTitle')}>
            {campaign.reason}
          </Alert>
        )}
        {campaign.status === 'SUBMITTED' && <Text size="sm">{t('mine.waiting')}</Text>}
        <CampaignProgress campaign={campaign} />
        <Group gap="xs">
          {EDITABLE.has(campaign.status) && (
            <Button component={Link} to={editorPath(campaign.id)} size="xs">
              {campaign.status === 'REFUSED' ? t('mine.editAndResubmit') : t('mine.edit')}
            </Button>
          )}
          {PUBLIC.has(campaign.status) && (
            <>
              <Button size="xs" variant="light" onClick={() => onUpdate(campaign.id)}>
                {t('mine.postUpdate')}
              </Button>
              <Button component={Link} to={withdrawPath(campaign.id)} size="xs" variant="light" color="teal">
                {t('payout:mine.withdraw')}
              </Button>
              <Button component={Link} to={campaignPath(campaign.id)} size="xs" variant="subtle">
                {t('mine.view')}
              </Button>
            </>
          )}
        </Group>
        <Accordion variant="contained" chevronPosition="left" value={historyOpen ? 'history' : null} onChange={(v) => setHistoryOpen(v === 'history')}>
          <Accordion.Item value="history">
            <Accordion.Control>{t('mine.history')}</Accordion.Control>
            <Accordion.Panel>{historyOpen && <History id={campaign.id} />}</Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      </Stack>
    </Card>
  );
}

/** The caller's campaigns (docs/charity.md "API": GET /campaign/mine), every status, with their history and totals. */
export default function MyCampaignsPage() {
  const { t } = useTranslation(['campaign', 'payout', 'common']);
  const session = useSession();
  const query = useMyCampaigns();
  const [updating, setUpdating] = useState<string | null>(null);
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t('campaign:mine.title')}
          </Title>
          <Group gap="xs">
            <Button component={Link} to={payoutAccountsPath} variant="light" leftSection={<IconBuildingBank size={16} aria-hidden />}>
              {t('payout:accounts.title')}
            </Button>
            <Button component={Link} to={`${paths.myCampaigns}/new`} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('campaign:mine.new')}
            </Button>
          </Group>
        </Group>
        {session && <MyMoney personId={session.id} />}
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:mine.loadFailed')} role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : query.data.length === 0 ? (
          <Text>{t('campaign:mine.empty')}</Text>
        ) : (
          <>
            <Totals campaigns={query.data} />
            {query.data.map((c) => (
              <MyCampaignCard key={c.id} campaign={c} onUpdate={setUpdating} />
            ))}
          </>
        )}
      </Stack>
      {updating && <PostUpdateDialog campaignId={updating} opened onClose={() => setUpdating(null)} />}
    </Container>
  );
}
