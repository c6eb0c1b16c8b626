import type { EventStatus } from '@admit/shared/events';
import { Badge } from '@mantine/core';
import { defineMessages, useIntl } from 'react-intl';

const statusNames = defineMessages({
  draft: { id: 'event.status.draft', defaultMessage: 'Draft' },
  published: { id: 'event.status.published', defaultMessage: 'On sale' },
  sales_closed: { id: 'event.status.salesClosed', defaultMessage: 'Sales closed' },
  ended: { id: 'event.status.ended', defaultMessage: 'Ended' },
  cancelled: { id: 'event.status.cancelled', defaultMessage: 'Cancelled' },
});
const statusColors: Record<EventStatus, string> = {
  draft: 'gray',
  published: 'green',
  sales_closed: 'yellow',
  ended: 'dark',
  cancelled: 'red',
};

export function EventStatusBadge({ status }: { status: EventStatus }) {
  const intl = useIntl();
  return (
    <Badge color={statusColors[status]} variant="light">
      {intl.formatMessage(statusNames[status])}
    </Badge>
  );
}
