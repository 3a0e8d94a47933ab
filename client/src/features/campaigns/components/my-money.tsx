import { Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPaise } from '@/lib/payments/amount';
import { useMyMoney } from '../api/payouts';
import { useLang } from '../hooks/use-lang';
import { personRupeesToPaise } from '../lib/payout-rules';

/**
 * What the beneficiary's campaigns collected, may still withdraw and have withdrawn, from the
 * server's ledger sums (docs/charity.md "The ledger": `tac`, `aw`, `taw`), the same figures the
 * campaign pages and reports add up to. A failed read shows nothing: the campaigns below still do.
 */
export function MyMoney({ personId, withPaid = false }: { personId: string; withPaid?: boolean }) {
  const { t } = useTranslation(['payout', 'common']);
  const lang = useLang();
  const query = useMyMoney(personId);
  if (query.isError) return null;
  const figures: [string, string, number | undefined][] = [
    ['collected', t('payout:money.collected'), query.data?.tac],
    ['withdrawable', t('payout:money.withdrawable'), query.data?.aw],
    ['withdrawn', t('payout:money.withdrawn'), query.data?.taw],
    ...(withPaid ? [['paid', t('payout:money.paid'), query.data?.paidAmount] as [string, string, number | undefined]] : []),
  ];
  return (
    <Stack gap={6} component="section" aria-labelledby="my-money">
      <Title order={2} size="h5" id="my-money">
        {t(withPaid ? 'payout:money.profileTitle' : 'payout:money.title')}
      </Title>
      <SimpleGrid cols={{ base: 2, xs: figures.length }} spacing="xs" data-testid="my-money">
        {figures.map(([key, label, rupees]) => (
          <Card key={key} withBorder padding="xs" data-testid={`money-${key}`}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            {rupees === undefined ? <Loader size="xs" aria-label={t('common:actions.loading')} /> : <Text fw={700}>{formatPaise(personRupeesToPaise(rupees), lang)}</Text>}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
