import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUSES, type OrderStatus } from '@pm/protocol/order';

const COLOURS: Record<OrderStatus, string> = {
  CREATED: 'gray',
  PENDING: 'yellow',
  PAID: 'teal',
  FAILED: 'red',
  EXPIRED: 'gray',
  CANCELLED: 'gray',
  REFUNDED: 'blue',
};

const isStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);

/** An order's status (sync-protocol ORDER_STATUSES) in the interface language. */
export function OrderStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('plan');
  if (!isStatus(status)) return <Badge color="gray">{status}</Badge>;
  return (
    <Badge color={COLOURS[status]} variant="light">
      {t(`orderStatus.${status}`)}
    </Badge>
  );
}
