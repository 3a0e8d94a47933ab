import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MyOrder, MyPlan } from '@pm/protocol/payment';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useMyPayments } from '../api/get-my-payments';
import { formatPaise } from '@/lib/payments/amount';
import { formatDate } from '../lib/dates';
import { OrderStatusBadge } from './order-status-badge';

type Lang = 'en' | 'hi';

function Allowance({ label, allowance }: { label: string; allowance: MyPlan['mock'] }) {
  const { t } = useTranslation('plan');
  const left = allowance.limit === null ? t('myPlan.unlimited') : t('myPlan.usedOf', { used: allowance.used, limit: allowance.limit });
  return (
    <Text>
      {label}: <strong>{left}</strong>
    </Text>
  );
}

function ActivePlan({ plan, lang }: { plan: MyPlan | null; lang: Lang }) {
  const { t } = useTranslation('plan');
  if (!plan) {
    return (
      <Group justify="space-between" gap="sm">
        <Text>{t('myPlan.none')}</Text>
        <Button component={Link} to={paths.plan} size="xs" variant="light">
          {t('myPlan.seePlans')}
        </Button>
      </Group>
    );
  }
  return (
    <Stack gap={4} data-testid="active-plan">
      <Text fw={600} size="lg">
        {plan.name[lang]}
      </Text>
      <Allowance label={t('myPlan.mock')} allowance={plan.mock} />
      <Allowance label={t('myPlan.practice')} allowance={plan.practice} />
      <Text c="dimmed" size="sm">
        {t('myPlan.endsOn', { date: formatDate(plan.endsAt, lang) })}
      </Text>
    </Stack>
  );
}

/** A paid order's receipt link; it stays with the order if an admin refunds it. */
function ReceiptLink({ order }: { order: MyOrder }) {
  const { t } = useTranslation('plan');
  if (order.receiptNo === null || (order.status !== 'PAID' && order.status !== 'REFUNDED')) return null;
  return (
    <Anchor component={Link} to={`${paths.receipt}/${encodeURIComponent(order.id)}`} size="sm">
      <Group gap={4} wrap="nowrap" component="span">
        <IconReceipt size={16} aria-hidden />
        {t('myPlan.receiptNo', { no: order.receiptNo })}
      </Group>
    </Anchor>
  );
}

/**
 * The learner's orders: a table from the `sm` breakpoint, one card per order below it, so that
 * nothing is cut off or needs sideways scrolling on a 360 px phone (docs/payments.md, "My plan").
 */
function PastOrders({ orders, lang }: { orders: MyOrder[]; lang: Lang }) {
  const { t } = useTranslation('plan');
  if (orders.length === 0) return <Text c="dimmed">{t('myPlan.noOrders')}</Text>;
  const planOf = (o: MyOrder) => (o.plan ? o.plan.name[lang] || o.plan.name.en : t('myPlan.donation'));
  return (
    <>
      <Table verticalSpacing="xs" aria-label={t('myPlan.orders')} visibleFrom="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('myPlan.date')}</Table.Th>
            <Table.Th>{t('myPlan.plan')}</Table.Th>
            <Table.Th ta="right">{t('myPlan.amount')}</Table.Th>
            <Table.Th>{t('myPlan.status')}</Table.Th>
            <Table.Th>{t('myPlan.receipt')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.id} data-testid={`order-${o.id}`}>
              <Table.Td>{formatDate(o.paidAt ?? o.createdAt, lang)}</Table.Td>
              <Table.Td>{planOf(o)}</Table.Td>
              <Table.Td ta="right">{formatPaise(o.amount, lang)}</Table.Td>
              <Table.Td>
                <OrderStatusBadge status={o.status} />
              </Table.Td>
              <Table.Td>
                <ReceiptLink order={o} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack gap="xs" hiddenFrom="sm" component="ul" aria-label={t('myPlan.orders')} m={0} p={0} style={{ listStyle: 'none' }}>
        {orders.map((o) => (
          <Paper key={o.id} withBorder radius="sm" p="xs" component="li" data-testid={`order-card-${o.id}`}>
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Stack gap={2} miw={0}>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {planOf(o)}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDate(o.paidAt ?? o.createdAt, lang)}
                </Text>
              </Stack>
              <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatPaise(o.amount, lang)}
              </Text>
            </Group>
            <Group justify="space-between" gap="xs" mt={6}>
              <OrderStatusBadge status={o.status} />
              <ReceiptLink order={o} />
            </Group>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

/**
 * My plan (docs/payments.md "Receipts"), shown in the profile: the active plan, what is left of it and its end
 * date, then the learner's orders with a receipt for each paid one.
 */
export default function MyPlanSection() {
  const { t, i18n } = useTranslation(['plan', 'common']);
  const lang: Lang = (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
  const query = useMyPayments();
  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md" component="section" aria-labelledby="my-plan-title">
      <Title order={2} size="h4" mb="sm" id="my-plan-title">
        {t('plan:myPlan.title')}
      </Title>
      {query.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={t('common:actions.loading')} />
        </Center>
      ) : query.isError ? (
        <Alert color="red" variant="light" title={t('plan:myPlan.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              {t('common:errors.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Stack gap="md">
          <ActivePlan plan={query.data.plan} lang={lang} />
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('plan:myPlan.orders')}
            </Title>
            <PastOrders orders={query.data.orders} lang={lang} />
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
