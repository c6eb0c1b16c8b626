import { AnchorLink } from '../../lib/links';
import { myTickets } from '@admit/shared/tickets';
import { Badge, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatRange } from '../../lib/dates';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { TicketQr } from './ticket-qr';

export function MyTicketsPage() {
  const intl = useIntl();
  const { rows, isLoading, error } = useLiveQuery(myTickets, {});
  return (
    <Stack gap="lg">
      <Title order={1}>
        <FormattedMessage id="myTickets.title" defaultMessage="My tickets" />
      </Title>
      {error && <ErrorState error={error} />}
      {isLoading && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'myTickets.empty.title', defaultMessage: 'No tickets yet' })}>
          <FormattedMessage
            id="myTickets.empty.body"
            defaultMessage="Tickets you take for an event show up here, ready to scan at the door."
          />
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((ticket) => (
            <Card
              component="li"
              key={ticket.id}
              withBorder
              padding="lg"
              aria-label={intl.formatMessage(
                { id: 'myTickets.ticketLabel', defaultMessage: '{type} ticket for {event}' },
                { type: ticket.ticketTypeName, event: ticket.eventTitle },
              )}
            >
              <Stack gap="xs" align="center" ta="center">
                <AnchorLink to="/e/$slug" params={{ slug: ticket.eventSlug }} fw={700}>
                  {ticket.eventTitle}
                </AnchorLink>
                <Text size="sm">{formatRange(intl.locale, ticket.startsAt, ticket.endsAt, ticket.timeZone)}</Text>
                <Text size="sm" c="dimmed">
                  {ticket.venue}
                </Text>
                <TicketQr
                  code={ticket.code}
                  label={intl.formatMessage(
                    { id: 'myTickets.qr', defaultMessage: 'QR code of ticket {code}' },
                    { code: ticket.code },
                  )}
                />
                <Group gap="xs" justify="center">
                  <Badge variant="light">{ticket.ticketTypeName}</Badge>
                  {ticket.status === 'void' && (
                    <Badge color="red">
                      <FormattedMessage id="myTickets.void" defaultMessage="Void" />
                    </Badge>
                  )}
                </Group>
                <Text size="sm">{ticket.holderName}</Text>
                <Code>{ticket.code}</Code>
                <AnchorLink to="/orders/$orderId" params={{ orderId: ticket.orderId }} size="sm">
                  <FormattedMessage id="myTickets.order" defaultMessage="Order and payment" />
                </AnchorLink>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
