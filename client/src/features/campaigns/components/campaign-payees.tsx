import { Alert, Card, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { addCampaignPayee, type NewPayoutAccount, payoutKeys, useCampaignPayees } from '../api/payouts';
import { AccountStatusBadge, AccountSummary, NameMismatch } from './payout-bits';
import { PayoutAccountForm } from './payout-account-form';

function PayeeList({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation(['payout', 'common']);
  const query = useCampaignPayees(campaignId);
  if (query.isPending)
    return (
      <Center py="md">
        <Loader size="sm" aria-label={t('common:actions.loading')} />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" variant="light" title={t('payout:payees.loadFailed')} role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
      </Alert>
    );
  if (query.data.length === 0) return <Text size="sm">{t('payout:payees.empty')}</Text>;
  return (
    <Stack gap="xs">
      {query.data.map((a) => (
        <Card key={a.id} withBorder padding="xs" data-testid="campaign-payee">
          <Stack gap={4}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <AccountSummary account={a} />
              <AccountStatusBadge status={a.status} />
            </Group>
            <NameMismatch account={a} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * A campaign's supplier payees (staff, CREATE_CAMPAIGN; docs/charity.md "Payout accounts"): the
 * suppliers the trust prefers to pay directly, each verified with the bank like an account.
 */
export function CampaignPayeesDialog({ campaignId, title, onClose }: { campaignId: string; title: string; onClose: () => void }) {
  const { t } = useTranslation('payout');
  const client = useQueryClient();
  const small = useMediaQuery('(max-width: 480px)');
  const add = async (body: NewPayoutAccount & { supplierName?: string }) => {
    const answer = await addCampaignPayee(campaignId, { ...body, supplierName: body.supplierName ?? '' });
    await client.invalidateQueries({ queryKey: payoutKeys.payees(campaignId) });
    if (answer.data.status === 'VERIFIED') notifySuccess(t('accounts.addedVerified'));
    else notifyError(t('accounts.addedFailed'));
  };
  return (
    <Modal opened onClose={onClose} title={t('payees.title', { title })} fullScreen={small} size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('payees.intro')}
        </Text>
        <PayeeList campaignId={campaignId} />
        <PayoutAccountForm withSupplier title={t('payees.add')} onSubmit={add} />
      </Stack>
    </Modal>
  );
}
