import { myTickets } from '@admit/shared/tickets';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { FormattedMessage } from 'react-intl';
import { directionOf } from '@admit/shared/locales';
import { localizeTicket } from '../../lib/event-language';
import { useLocale } from '../../lib/i18n';
import { useLiveQuery } from '../../lib/live';
import { holderEditable, TicketHolder } from './ticket-holder';

/**
 * Right after checkout, on the order's page: who each ticket is for, changeable until the event
 * starts (the same as on My tickets). Each row names its ticket's type: an order of a VIP and two
 * standing tickets says which name goes with which. Nothing when no ticket of the order can change any more.
 */
export function OrderTicketHolders({ orderId }: { orderId: string }) {
  const { locale } = useLocale();
  const { rows } = useLiveQuery(myTickets, {});
  const tickets = useMemo(
    () => rows?.filter((ticket) => ticket.orderId === orderId).map((ticket) => localizeTicket(ticket, locale)) ?? [],
    [rows, orderId, locale],
  );
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
              <Stack gap={2} align="center">
                <Text size="sm" fw={600} lang={ticket.shownIn} dir={directionOf(ticket.shownIn)}>
                  {ticket.ticketTypeName}
                </Text>
                <TicketHolder ticket={ticket} />
              </Stack>
            </li>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
