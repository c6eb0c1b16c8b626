import { myTickets } from '@admit/shared/tickets';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { holderEditable, TicketHolder } from './ticket-holder';

/**
 * Right after checkout, on the order's page: who each ticket is for, changeable until the event
 * starts (the same as on My tickets). Nothing when no ticket of the order can change any more.
 */
export function OrderTicketHolders({ orderId }: { orderId: string }) {
  const { rows } = useLiveQuery(myTickets, {});
  const tickets = rows?.filter((ticket) => ticket.orderId === orderId) ?? [];
  if (!tickets.some((ticket) => holderEditable(ticket))) return null;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <FormattedMessage id="orderHolders.title" defaultMessage="Who is coming?" />
        </Title>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="orderHolders.body"
            defaultMessage="Each ticket carries a name, shown at the door. Change it for whoever uses the ticket, until the event starts."
          />
        </Text>
        <Stack gap="xs" component="ol" style={{ paddingInlineStart: 0, listStyle: 'none', margin: 0 }}>
          {tickets.map((ticket) => (
            <li key={ticket.id}>
              <TicketHolder ticket={ticket} />
            </li>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
