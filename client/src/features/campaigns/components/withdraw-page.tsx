import { Alert, Anchor, Button, Center, Container, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { permissionsOf } from '@/lib/session';
import { useCampaign } from '../api/campaigns';
import { moveWithdrawal, type PayoutAccount, payoutKeys, useCampaignPayees, useCampaignWithdrawals, useMyPayoutAccounts, useWithdrawable, type Withdrawal } from '../api/payouts';
import type { Campaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { pick } from '../lib/campaign-lib';
import { payoutAccountsPath } from '../lib/payout-paths';
import { PostUpdateDialog } from './post-update-dialog';
import { WithdrawalCard } from './withdrawal-card';
import { WithdrawableFigures, WithdrawForm } from './withdraw-form';

function Failed({ error, title }: { error: unknown; title: string }) {
  const { t } = useTranslation('common');
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={title} role="alert">
      {error instanceof ApiError ? error.msg : t('errors.someError')}
    </Alert>
  );
}

const Loading = () => {
  const { t } = useTranslation('common');
  return (
    <Center py="md">
      <Loader size="sm" aria-label={t('actions.loading')} />
    </Center>
  );
};

/**
 * Whom this reader may pay: the owner their own VERIFIED accounts, staff the campaign's VERIFIED
 * supplier payees (docs/charity.md "Withdrawals": who may request).
 */
function usePayees(campaign: Campaign): { payees: PayoutAccount[]; pending: boolean } {
  const session = useSession();
  const owner = session?.id === campaign.beneficiaryId;
  const staff = permissionsOf(session).has('CREATE_CAMPAIGN');
  const mine = useMyPayoutAccounts(owner);
  const suppliers = useCampaignPayees(campaign.id, staff);
  const usable = (a: PayoutAccount) => a.status === 'VERIFIED';
  const payees = [...(owner ? (mine.data ?? []).filter((a) => !a.supplierName) : []), ...(staff ? (suppliers.data ?? []) : [])].filter(usable);
  return { payees, pending: (owner && mine.isPending) || (staff && suppliers.isPending) };
}

/** The update a PAID withdrawal asks for before the next (docs/charity.md "Withdrawals"), with the way to post it. */
function UpdateFirst({ onPost }: { onPost: () => void }) {
  const { t } = useTranslation('payout');
  return (
    <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} title={t('withdraw.updateRequiredTitle')} data-testid="update-required">
      <Stack gap="xs">
        <Text size="sm">{t('withdraw.updateRequired')}</Text>
        <Group>
          <Button size="xs" onClick={onPost}>
            {t('withdraw.postUpdate')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function RequestSection({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('payout');
  const client = useQueryClient();
  const figures = useWithdrawable(campaign.id);
  const { payees, pending } = usePayees(campaign);
  const [posting, setPosting] = useState(false);
  const closeUpdate = () => {
    setPosting(false);
    void client.invalidateQueries({ queryKey: payoutKeys.withdrawable(campaign.id) });
  };
  if (figures.isPending || pending) return <Loading />;
  if (figures.isError) return <Failed error={figures.error} title={t('withdraw.loadFailed')} />;
  return (
    <Stack gap="md">
      <WithdrawableFigures figures={figures.data} />
      {figures.data.updateRequired ? (
        <UpdateFirst onPost={() => setPosting(true)} />
      ) : figures.data.available < 100 ? (
        <Text data-testid="nothing-to-withdraw">{t('withdraw.nothing')}</Text>
      ) : (
        <WithdrawForm campaignId={campaign.id} figures={figures.data} payees={payees} />
      )}
      {posting && <PostUpdateDialog campaignId={campaign.id} opened onClose={closeUpdate} />}
    </Stack>
  );
}

/** Cancel, the requester's only move, while nobody has acted on it (REQUESTED). */
function CancelAction({ withdrawal }: { withdrawal: Withdrawal }) {
  const { t } = useTranslation(['payout', 'common']);
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const cancel = async () => {
    setBusy(true);
    try {
      await moveWithdrawal(withdrawal.id, 'cancel');
      await client.invalidateQueries({ queryKey: payoutKeys.all });
      notifySuccess(t('payout:list.cancelled'));
      setOpen(false);
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.msg : t('common:errors.someError'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Group>
        <Button size="xs" variant="light" color="red" onClick={() => setOpen(true)}>
          {t('payout:list.cancel')}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('payout:list.cancelTitle')}>
        <Stack gap="sm">
          <Text size="sm">{t('payout:list.cancelText')}</Text>
          {refusal && (
            <Alert color="red" variant="light" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('payout:list.keep')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void cancel()}>
              {t('payout:list.cancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** The campaign's withdrawals, newest first as the server sends them; the requester may cancel one still REQUESTED. */
function CampaignWithdrawals({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('payout');
  const session = useSession();
  const query = useCampaignWithdrawals(campaignId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="campaign-withdrawals">
      <Title order={2} size="h4" id="campaign-withdrawals">
        {t('list.title')}
      </Title>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Failed error={query.error} title={t('list.loadFailed')} />
      ) : query.data.length === 0 ? (
        <Text size="sm">{t('list.empty')}</Text>
      ) : (
        query.data.map((w) => (
          <WithdrawalCard key={w.id} withdrawal={w} actions={w.status === 'REQUESTED' && w.requester.id === session?.id ? <CancelAction withdrawal={w} /> : undefined} />
        ))
      )}
    </Stack>
  );
}

/**
 * Withdrawing from a campaign (docs/charity.md "The withdrawal screens"): what it may withdraw,
 * the request, and its withdrawals with what became of them. For the campaign's owner (to their
 * own accounts) and staff (to its suppliers); the server decides who may.
 */
export default function WithdrawPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['payout', 'campaign', 'common']);
  const lang = useLang();
  const campaign = useCampaign(id);
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Anchor component={Link} to={paths.myCampaigns} size="sm">
            {t('payout:common.backToMine')}
          </Anchor>
          <Anchor component={Link} to={payoutAccountsPath} size="sm">
            {t('payout:accounts.title')}
          </Anchor>
        </Group>
        <Title order={1} size="h2">
          {t('payout:withdraw.title')}
        </Title>
        {campaign.isPending ? (
          <Loading />
        ) : campaign.isError ? (
          <Failed error={campaign.error} title={t('campaign:detail.loadFailed')} />
        ) : (
          <>
            <Text fw={500}>{pick(campaign.data.title, lang)}</Text>
            <RequestSection campaign={campaign.data} />
            <CampaignWithdrawals campaignId={id} />
          </>
        )}
      </Stack>
    </Container>
  );
}
