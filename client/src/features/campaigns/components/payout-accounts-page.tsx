import { Alert, Anchor, Button, Card, Center, Container, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { addPayoutAccount, deletePayoutAccount, type NewPayoutAccount, type PayoutAccount, payoutKeys, useMyPayoutAccounts } from '../api/payouts';
import { maskedAccount } from '../lib/payout-rules';
import { PayoutAccountForm } from './payout-account-form';
import { AccountStatusBadge, AccountSummary, NameMismatch } from './payout-bits';

function AccountCard({ account, onDelete }: { account: PayoutAccount; onDelete: (a: PayoutAccount) => void }) {
  const { t } = useTranslation('payout');
  return (
    <Card withBorder padding="sm" data-testid="payout-account">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <AccountSummary account={account} />
          <AccountStatusBadge status={account.status} />
        </Group>
        <NameMismatch account={account} />
        {account.status === 'FAILED' && (
          <Text size="sm" c="red.8">
            {t('accounts.failedNote')}
          </Text>
        )}
        {account.status === 'PENDING' && (
          <Text size="sm" c="dimmed">
            {t('accounts.pendingNote')}
          </Text>
        )}
        <Group>
          <Button size="xs" variant="subtle" color="red" onClick={() => onDelete(account)}>
            {t('accounts.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Asks before deleting; the server refuses (409) while an open withdrawal uses the account, said in the dialog. */
function DeleteDialog({ account, onClose }: { account: PayoutAccount | null; onClose: () => void }) {
  const { t } = useTranslation(['payout', 'common']);
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const remove = async () => {
    if (!account) return;
    setBusy(true);
    try {
      await deletePayoutAccount(account.id);
      await client.invalidateQueries({ queryKey: payoutKeys.mine });
      notifySuccess(t('payout:accounts.deleted'));
      close();
    } catch (e) {
      setRefusal(e instanceof ApiError ? e.msg : t('common:errors.someError'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={account !== null} onClose={close} title={t('payout:accounts.deleteTitle')}>
      <Stack gap="sm">
        <Text size="sm">{t('payout:accounts.deleteText', { account: account ? maskedAccount(account) : '' })}</Text>
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('payout:common.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => void remove()}>
            {t('payout:accounts.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function AccountList({ onDelete }: { onDelete: (a: PayoutAccount) => void }) {
  const { t } = useTranslation(['payout', 'common']);
  const query = useMyPayoutAccounts();
  if (query.isPending)
    return (
      <Center py="md">
        <Loader size="sm" aria-label={t('common:actions.loading')} />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('payout:accounts.loadFailed')} role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
      </Alert>
    );
  const own = query.data.filter((a) => !a.supplierName);
  if (own.length === 0) return <Text>{t('payout:accounts.empty')}</Text>;
  return (
    <Stack gap="sm">
      {own.map((a) => (
        <AccountCard key={a.id} account={a} onDelete={onDelete} />
      ))}
    </Stack>
  );
}

/**
 * The beneficiary's payout accounts (docs/charity.md "Payout accounts"; "The withdrawal
 * screens"): each checked with the bank before it is used, the bank's name shown when it is not
 * theirs (the trustees see it too), added and deleted here.
 */
export default function PayoutAccountsPage() {
  const { t } = useTranslation(['payout', 'common']);
  const client = useQueryClient();
  const [deleting, setDeleting] = useState<PayoutAccount | null>(null);
  const add = async (body: NewPayoutAccount) => {
    const answer = await addPayoutAccount(body);
    await client.invalidateQueries({ queryKey: payoutKeys.mine });
    // The bank's answer is the account's status: a FAILED one is kept (and shown) but cannot be used.
    if (answer.data.status === 'VERIFIED') notifySuccess(t('payout:accounts.addedVerified'));
    else notifyError(t('payout:accounts.addedFailed'));
  };
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={paths.myCampaigns} size="sm">
          {t('payout:common.backToMine')}
        </Anchor>
        <Title order={1} size="h2">
          {t('payout:accounts.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('payout:accounts.intro')}
        </Text>
        <AccountList onDelete={setDeleting} />
        <PayoutAccountForm title={t('payout:accounts.add')} onSubmit={add} />
      </Stack>
      <DeleteDialog account={deleting} onClose={() => setDeleting(null)} />
    </Container>
  );
}
