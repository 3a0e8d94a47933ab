import { Alert, Anchor, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { permissionsOf } from '@/lib/session';
import { useWithdrawalQueue } from '../api/payouts';
import { WithdrawalActions } from './withdrawal-actions';
import { WithdrawalCard } from './withdrawal-card';

/**
 * The trustees' withdrawal queue (docs/charity.md "The withdrawal screens"; APPROVE_WITHDRAWAL):
 * requested, approved, paying and failed withdrawals, overdue first then by due time, as the
 * server orders them. The same permission checks a payment's status and pays a failed one again
 * (the server's access table: APPROVE_WITHDRAWAL).
 */
export default function WithdrawalsQueuePage() {
  const { t } = useTranslation(['payout', 'common']);
  const session = useSession();
  const checksPayouts = permissionsOf(session).has('APPROVE_WITHDRAWAL');
  const query = useWithdrawalQueue();
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Anchor component={Link} to={paths.trustee} size="sm">
            {t('payout:queue.toCampaigns')}
          </Anchor>
        </Group>
        <Title order={1} size="h2">
          {t('payout:queue.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('payout:queue.intro')}
        </Text>
        {query.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common:actions.loading')} />
          </Center>
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('payout:queue.loadFailed')} role="alert">
            {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
          </Alert>
        ) : query.data.length === 0 ? (
          <Text>{t('payout:queue.empty')}</Text>
        ) : (
          query.data.map((w) => <WithdrawalCard key={w.id} withdrawal={w} withCampaign actions={<WithdrawalActions withdrawal={w} me={session?.id} checksPayouts={checksPayouts} />} />)
        )}
      </Stack>
    </Container>
  );
}
