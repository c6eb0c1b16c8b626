import type { MyOrderRow } from '@admit/shared/orders';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { directionOf, type Locale } from '@admit/shared/locales';
import { ticketChangesOpen } from '../../lib/order-changes';
import { TicketHolder } from './ticket-holder';
import { TicketResale } from './ticket-resale';
import { TicketTransfer } from './ticket-transfer';
import { WalletButtons } from './wallet-buttons';

/**
 * Right after checkout, on the order's page: who each ticket is for, changeable until the event
 * starts (the same as on My tickets), by the buyer or by a guest through their order's token. Each
 * row names its ticket's type: an order of a VIP and two standing tickets says which name goes with
 * which. Each can be sent to someone else until the organizer's deadline (decision 0065); one they
 * accepted is theirs, and only says to whom it went. Each can be offered back for resale when the
 * organizer allows it (decision 0066), and added to a wallet (decision 0067; a guest's by their order's
 * token). Nothing once no ticket of the order can change any more.
 * `order` is the order page's, its lines' names already in the reader's language (`shownIn`).
 */
export function OrderTicketHolders({ order, accessToken }: { order: MyOrderRow & { shownIn: Locale }; accessToken?: string }) {
  const typeNames = new Map(order.lines.map((line) => [line.ticketTypeId, line.ticketTypeName]));
  const tickets = order.tickets.map((ticket) => ({ ...ticket, ticketTypeName: typeNames.get(ticket.ticketTypeId) ?? '' }));
  if (!ticketChangesOpen(order) || tickets.length === 0) return null;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <FormattedMessage id="orderHolders.title" defaultMessage="Who is coming?" />
        </Title>
        <Text size="sm" c="dimmed">
          {tickets.every((ticket) => ticket.givenAway) ? (
            <FormattedMessage
              id="orderHolders.allGivenAway"
              defaultMessage="The people you sent these tickets to accepted them: their names are on them now."
            />
          ) : (
            <FormattedMessage
              id="orderHolders.body"
              defaultMessage="Each ticket carries a name, shown at the door. Change it for whoever uses the ticket, until the event starts."
            />
          )}
        </Text>
        <Stack gap="md" component="ol" style={{ paddingInlineStart: 0, listStyle: 'none', margin: 0 }}>
          {tickets.map((ticket) => (
            <li key={ticket.id}>
              <Stack gap={2} align="center">
                <Text size="sm" fw={600} lang={order.shownIn} dir={directionOf(order.shownIn)}>
                  {ticket.ticketTypeName}
                </Text>
                {ticket.givenAway ? (
                  <Text size="sm" data-testid="ticket-given-away">
                    <FormattedMessage
                      id="orderHolders.givenAway"
                      defaultMessage="Sent to {name}"
                      values={{ name: <strong>{ticket.holderName}</strong> }}
                    />
                  </Text>
                ) : (
                  <>
                    <TicketHolder ticket={ticket} editable accessToken={accessToken} />
                    <WalletButtons ticket={ticket} accessToken={accessToken} my={6} />
                    <TicketTransfer ticket={ticket} timeZone={order.timeZone} accessToken={accessToken} />
                    <TicketResale ticket={ticket} accessToken={accessToken} />
                  </>
                )}
              </Stack>
            </li>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
