import type { WaitlistStatus } from '@admit/shared/waitlist';
import { defineMessages, useIntl } from 'react-intl';
import { StatusBadge } from '../../lib/status-badge';

const statusNames = defineMessages({
  unconfirmed: { id: 'waitlist.status.unconfirmed', defaultMessage: 'Not confirmed' },
  waiting: { id: 'waitlist.status.waiting', defaultMessage: 'Waiting' },
  offered: { id: 'waitlist.status.offered', defaultMessage: 'Offered' },
  accepted: { id: 'waitlist.status.accepted', defaultMessage: 'Has tickets' },
  expired: { id: 'waitlist.status.expired', defaultMessage: 'Offer ended' },
  left: { id: 'waitlist.status.left', defaultMessage: 'Left' },
  removed: { id: 'waitlist.status.removed', defaultMessage: 'Removed' },
  closed: { id: 'waitlist.status.closed', defaultMessage: 'List closed' },
});

const statusColors: Record<WaitlistStatus, string> = {
  unconfirmed: 'gray',
  waiting: 'blue',
  offered: 'yellow',
  accepted: 'green',
  expired: 'gray',
  left: 'gray',
  removed: 'gray',
  closed: 'gray',
};

/** Where an entry is, as its organizers read it, in a colour per status. */
export function WaitlistStatusBadge({ status }: { status: WaitlistStatus }) {
  const intl = useIntl();
  return <StatusBadge color={statusColors[status]}>{intl.formatMessage(statusNames[status])}</StatusBadge>;
}
