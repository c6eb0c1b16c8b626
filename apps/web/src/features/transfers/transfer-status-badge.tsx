import type { TransferStatus } from '@admit/shared/transfers';
import { Badge } from '@mantine/core';
import { defineMessages, useIntl } from 'react-intl';

const statusNames = defineMessages({
  pending: { id: 'transfers.status.pending', defaultMessage: 'Waiting' },
  accepted: { id: 'transfers.status.accepted', defaultMessage: 'Accepted' },
  cancelled: { id: 'transfers.status.cancelled', defaultMessage: 'Cancelled' },
  declined: { id: 'transfers.status.declined', defaultMessage: 'Declined' },
  void: { id: 'transfers.status.void', defaultMessage: 'Ticket no longer valid' },
});

const statusColors: Record<TransferStatus, string> = {
  pending: 'yellow',
  accepted: 'green',
  cancelled: 'gray',
  declined: 'gray',
  void: 'gray',
};

/** Where a transfer is, as the event's admins read it, in a colour per status. */
export function TransferStatusBadge({ status }: { status: TransferStatus }) {
  const intl = useIntl();
  return (
    // Never cut short in a narrow column: the whole status, wrapped if it must be.
    <Badge
      variant="light"
      color={statusColors[status]}
      h="auto"
      styles={{ label: { overflow: 'visible', whiteSpace: 'normal' } }}
    >
      {intl.formatMessage(statusNames[status])}
    </Badge>
  );
}
