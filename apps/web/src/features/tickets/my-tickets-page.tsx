import { myTickets } from '@admit/shared/tickets';
import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { localizeTicket } from '../../lib/event-language';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLocale } from '../../lib/i18n';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { TicketCard } from './ticket-card';
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
            <TicketCard key={ticket.id} ticket={ticket} openedAt={openedAt} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
