import type { OrderStatus } from '@admit/shared/orders';
import { Badge, type BadgeProps } from '@mantine/core';
import { defineMessages, useIntl } from 'react-intl';

const statusNames = defineMessages({
  pending: { id: 'orders.status.pending', defaultMessage: 'Pending' },
  paid: { id: 'orders.status.paid', defaultMessage: 'Complete' },
  expired: { id: 'orders.status.expired', defaultMessage: 'Expired' },
  cancelled: { id: 'orders.status.cancelled', defaultMessage: 'Cancelled' },
  refunded: { id: 'orders.status.refunded', defaultMessage: 'Refunded' },
  partially_refunded: { id: 'orders.status.partiallyRefunded', defaultMessage: 'Partly refunded' },
});

const statusColors: Record<OrderStatus, string> = {
  pending: 'yellow',
  paid: 'green',
  expired: 'gray',
  cancelled: 'gray',
  refunded: 'red',
  partially_refunded: 'orange',
};

/** An order's status as organizers read it, in a colour per status. */
export function OrderStatusBadge({ status, ...props }: { status: OrderStatus } & BadgeProps) {
  const intl = useIntl();
  return (
    <Badge variant="light" color={statusColors[status]} {...props}>
      {intl.formatMessage(statusNames[status])}
    </Badge>
  );
}
