import type { TransferStatus } from '@admit/shared/transfers';
import { defineMessages, useIntl } from 'react-intl';
import { StatusBadge } from '../../lib/status-badge';

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
  return <StatusBadge color={statusColors[status]}>{intl.formatMessage(statusNames[status])}</StatusBadge>;
}
