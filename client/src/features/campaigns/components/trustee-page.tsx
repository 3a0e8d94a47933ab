import { Alert, Anchor, Button, Card, Center, Container, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { permissionsOf } from '@/lib/session';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { useCampaign, useCampaignQueue, useCampaigns } from '../api/campaigns';
import type { CampaignCard, QueuedCampaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { StatusBadge } from './campaign-bits';
import { CampaignView } from './campaign-page';
import { TrusteeActions } from './trustee-actions';

function LoadError({ error, title }: { error: unknown; title: string }) {
  const { t } = useTranslation('common');
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={title} role="alert">
      {error instanceof ApiError ? error.msg : t('errors.someError')}
    </Alert>
  );
}

/** One campaign opened from the queue or the list: the whole campaign as the public would read it, with the trustee's moves. */
function OpenCampaign({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaign(id);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common:actions.loading')} />
      </Center>
    );
  if (query.isError) return <LoadError error={query.error} title={t('campaign:detail.loadFailed')} />;
  return (
    <Stack gap="md">
      <Anchor component="button" type="button" onClick={onClose} size="sm" ta="left">
        {t('campaign:trustee.backToList')}
      </Anchor>
      <CampaignView campaign={query.data} actions={<TrusteeActions campaignId={id} status={query.data.status} onDone={onClose} />} />
    </Stack>
  );
}

function QueueItem({ campaign, onOpen }: { campaign: QueuedCampaign; onOpen: (id: string) => void }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const others = campaign.others ?? [];
  return (
    <Card withBorder padding="md" data-testid="queue-item">
      <Stack gap={6}>
        <Text fw={600}>{pick(campaign.title, lang)}</Text>
        <Text size="sm" c="dimmed">
          {t('trustee.submittedBy', { name: campaign.beneficiaryName ?? '—', date: formatDate(campaign.submittedAt ?? campaign.updatedAt, lang, 'dateTime') })}
        </Text>
        <Text size="sm">{t('trustee.goal', { goal: formatPaise(campaign.goal, lang) })}</Text>
        {others.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('trustee.others', { count: others.length })}: {others.map((o) => `${pick(o.title, lang)} (${t(`status.${o.status}`)})`).join(', ')}
          </Text>
        )}
        <Group>
          <Button size="xs" onClick={() => onOpen(campaign.id)}>
            {t('trustee.open')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Queue({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaignQueue();
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common:actions.loading')} />
      </Center>
    );
  if (query.isError) return <LoadError error={query.error} title={t('campaign:trustee.loadFailed')} />;
  if (query.data.length === 0) return <Text>{t('campaign:trustee.empty')}</Text>;
  return (
    <Stack gap="sm">
      {query.data.map((c) => (
        <QueueItem key={c.id} campaign={c} onOpen={onOpen} />
      ))}
    </Stack>
  );
}

function PublicItem({ campaign, onOpen }: { campaign: CampaignCard; onOpen: (id: string) => void }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Card withBorder padding="sm" data-testid="public-item">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4}>
          <Text fw={600}>{pick(campaign.title, lang)}</Text>
          <Group gap="xs">
            <StatusBadge status={campaign.status} />
            <Text size="xs" c="dimmed">
              {t('progress.raised', { raised: formatPaise(campaign.raised, lang), goal: formatPaise(campaign.goal, lang) })}
            </Text>
          </Group>
        </Stack>
        <Button size="xs" variant="light" onClick={() => onOpen(campaign.id)}>
          {t('trustee.open')}
        </Button>
      </Group>
    </Card>
  );
}

/** Approved, paused and closed campaigns (GET /campaigns), to pause, resume or close. */
function PublicCampaigns({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaigns({ page: 1, size: 50, sort: 'newest' });
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common:actions.loading')} />
      </Center>
    );
  if (query.isError) return <LoadError error={query.error} title={t('campaign:list.loadFailed')} />;
  if (query.data.data.length === 0) return <Text>{t('campaign:list.empty')}</Text>;
  return (
    <Stack gap="sm">
      {query.data.data.map((c) => (
        <PublicItem key={c.id} campaign={c} onOpen={onOpen} />
      ))}
    </Stack>
  );
}

/** The trustee's approval queue (docs/charity.md "Who does what": APPROVE_CAMPAIGN), oldest first, and the public campaigns' moves. */
export default function TrusteePage() {
  const { t } = useTranslation(['campaign', 'payout']);
  const [open, setOpen] = useState<string | null>(null);
  const approvesWithdrawals = permissionsOf(useSession()).has('APPROVE_WITHDRAWAL');
  return (
    <Container size="lg" py="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t('trustee.title')}
          </Title>
          {approvesWithdrawals && (
            <Button component={Link} to={paths.withdrawals} variant="light" size="sm">
              {t('payout:queue.link')}
            </Button>
          )}
        </Group>
        {open ? (
          <OpenCampaign id={open} onClose={() => setOpen(null)} />
        ) : (
          <Tabs defaultValue="queue" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="queue">{t('trustee.queueTab')}</Tabs.Tab>
              <Tabs.Tab value="public">{t('trustee.publicTab')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="queue" pt="md">
              <Queue onOpen={setOpen} />
            </Tabs.Panel>
            <Tabs.Panel value="public" pt="md">
              <PublicCampaigns onOpen={setOpen} />
            </Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Container>
  );
}
