import { Badge, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DonationView } from '@pm/protocol/donation';
import type { OrderStatus } from '@pm/protocol/order';
import { formatPaise } from '@/lib/payments/amount';
import { useLang } from '../hooks/use-lang';

/** A donation's order status (sync-protocol order.ts), as its donor and the staff read it. */
const STATUS_COLORS: Record<OrderStatus, string> = {
  CREATED: 'gray',
  PENDING: 'blue',
  PAID: 'teal',
  FAILED: 'red',
  EXPIRED: 'gray',
  CANCELLED: 'gray',
  REFUNDED: 'orange',
};

const isOrderStatus = (s: string): s is OrderStatus => s in STATUS_COLORS;

export function DonationStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('campaign');
  const known = isOrderStatus(status) ? status : 'CREATED';
  return (
    <Badge color={STATUS_COLORS[known]} variant="light" data-testid="donation-status">
      {t(`donation.status.${known}`)}
    </Badge>
  );
}

/** Whether the provider may still settle the donation (docs/payments.md: CREATED and PENDING are open). */
export const isOpenDonation = (d: Pick<DonationView, 'status'>) => d.status === 'CREATED' || d.status === 'PENDING';

/** The split a donation was made with (docs/charity.md "The split"): given, the trust's share, to the campaign. */
export function DonationFigures({ donation }: { donation: Pick<DonationView, 'amount' | 'share' | 'toCampaign'> }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const rows: [string, number][] = [
    [t('donate.split.amount'), donation.amount],
    [t('donation.share'), donation.share],
    [t('donate.split.toCampaign'), donation.toCampaign],
  ];
  return (
    <Table fz="sm" verticalSpacing={4} withRowBorders={false} data-testid="donation-figures">
      <Table.Tbody>
        {rows.map(([label, paise]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td ta="right">{formatPaise(paise, lang)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
