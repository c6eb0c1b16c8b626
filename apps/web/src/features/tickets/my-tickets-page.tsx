import { AnchorLink } from '../../lib/links';
import { myTickets } from '@admit/shared/tickets';
import { Badge, Card, Center, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatRange } from '../../lib/dates';
import { localizeTicket } from '../../lib/event-language';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLocale } from '../../lib/i18n';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { TicketsPdfLink } from '../../lib/tickets-pdf-link';
import { AddToCalendar } from './add-to-calendar';
import { holderEditable, TicketHolder } from './ticket-holder';
import { TicketQr } from './ticket-qr';
import { ticketsInOrder } from './tickets-in-order';

export function MyTicketsPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'pageTitle.myTickets', defaultMessage: 'My tickets' }));
  const { locale } = useLocale();
  const { rows, isLoading, error } = useLiveQuery(myTickets, {});
  // Which events have ended, as of when the page opened.
  const [openedAt] = useState(() => Date.now());
  const tickets = useMemo(
    () => rows && ticketsInOrder(rows, openedAt).map((ticket) => localizeTicket(ticket, locale)),
    [rows, openedAt, locale],
  );
  useFontsFor(
    ...(tickets ?? []).map((ticket) => `${ticket.eventTitle} ${ticket.venue} ${ticket.ticketTypeName} ${ticket.holderName}`),
  );
  return (
    <Stack gap="lg">
      <Title order={1}>
        <FormattedMessage id="myTickets.title" defaultMessage="My tickets" />
      </Title>
      {error && <ErrorState error={error} />}
      {isLoading && <PageLoader />}
      {tickets && tickets.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'myTickets.empty.title', defaultMessage: 'No tickets yet' })}>
          <FormattedMessage
            id="myTickets.empty.body"
            defaultMessage="Tickets you take for an event show up here, ready to scan at the door."
          />
        </EmptyState>
      )}
      {tickets && tickets.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {tickets.map((ticket) => (
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
                <AnchorLink to="/e/$slug" params={{ slug: ticket.eventSlug }} fw={700} lang={ticket.shownIn} dir="auto">
                  {ticket.eventTitle}
                </AnchorLink>
                <Text size="sm">{formatRange(intl.locale, ticket.startsAt, ticket.endsAt, ticket.timeZone)}</Text>
                <Text size="sm" c="dimmed" lang={ticket.shownIn} dir="auto">
                  {ticket.venue}
                </Text>
                {ticket.status === 'valid' && ticket.eventStatus !== 'cancelled' && Date.parse(ticket.endsAt) > openedAt && (
                  <AddToCalendar event={ticket} />
                )}
                {ticket.status === 'valid' ? (
                  <TicketQr
                    code={ticket.code}
                    label={intl.formatMessage(
                      { id: 'myTickets.qr', defaultMessage: 'QR code of ticket {code}' },
                      { code: ticket.code },
                    )}
                  />
                ) : (
                  // A refunded ticket shows nothing to scan: a code on the screen would look valid.
                  <Center
                    w={180}
                    h={180}
                    bg="var(--mantine-color-default-hover)"
                    style={{ borderRadius: 'var(--mantine-radius-md)' }}
                  >
                    <Stack gap={4} align="center" px="md">
                      <Text fw={700} c="red">
                        {ticket.eventStatus === 'cancelled' ? (
                          <FormattedMessage id="myTickets.eventCancelled" defaultMessage="Event cancelled" />
                        ) : ticket.freeOrder ? (
                          <FormattedMessage id="myTickets.cancelled" defaultMessage="Cancelled" />
                        ) : (
                          <FormattedMessage id="myTickets.refunded" defaultMessage="Refunded" />
                        )}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {ticket.eventStatus === 'cancelled' && ticket.freeOrder ? (
                          <FormattedMessage
                            id="myTickets.eventCancelledFreeNote"
                            defaultMessage="Your free ticket is cancelled: there is nothing to refund."
                          />
                        ) : ticket.eventStatus === 'cancelled' ? (
                          <FormattedMessage id="myTickets.eventCancelledNote" defaultMessage="Your money is refunded in full." />
                        ) : (
                          <FormattedMessage id="myTickets.refundedNote" defaultMessage="This ticket no longer admits anyone." />
                        )}
                      </Text>
                    </Stack>
                  </Center>
                )}
                <Group gap="xs" justify="center">
                  <Badge variant="light" lang={ticket.shownIn}>
                    {ticket.ticketTypeName}
                  </Badge>
                </Group>
                <TicketHolder ticket={ticket} editable={holderEditable(ticket)} />
                {ticket.status === 'valid' && <Code>{ticket.code}</Code>}
                {ticket.status === 'valid' && <TicketsPdfLink orderId={ticket.orderId} size="xs" variant="light" />}
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
