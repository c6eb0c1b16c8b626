import { ticketPdfPath, type MyTicketRow } from '@admit/shared/tickets';
import type { Locale } from '@admit/shared/locales';
import { Badge, Button, Card, Center, Code, Divider, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatRange } from '../../lib/dates';
import { AnchorLink } from '../../lib/links';
import { TicketsPdfLink } from '../../lib/tickets-pdf-link';
import { AddToCalendar } from './add-to-calendar';
import { holderEditable, TicketHolder } from './ticket-holder';
import { TicketQr } from './ticket-qr';
import { resaleShown, TicketResale } from './ticket-resale';
import { transferShown, TicketTransfer } from './ticket-transfer';
import { WalletButtons } from './wallet-buttons';

/**
 * One ticket as its holder sees it, on My tickets and on the page of a ticket sent to a guest: the
 * event, its QR code while it admits, whom it is for, its PDF and wallet passes (decision 0067),
 * sending it on (decision 0065) and offering it back for resale (decision 0066).
 * `accessToken`: a guest's, the token of the ticket's own link (no order page: the order is the
 * buyer's). A ticket that came by a transfer says from whom, and has a PDF of its own.
 */
export function TicketCard({
  ticket,
  openedAt,
  accessToken,
  component = 'li',
}: {
  ticket: MyTicketRow & { shownIn: Locale };
  /** When the page opened: an event that has ended offers no calendar entry. */
  openedAt: number;
  accessToken?: string;
  component?: 'li' | 'section';
}) {
  const intl = useIntl();
  const valid = ticket.status === 'valid';
  // A ticket sent to this person is theirs, not their order's: its own PDF, and no order to open.
  const ownTicket = ticket.receivedFrom !== null || accessToken !== undefined;
  return (
    <Card
      component={component}
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
        {valid && ticket.eventStatus !== 'cancelled' && Date.parse(ticket.endsAt) > openedAt && <AddToCalendar event={ticket} />}
        {valid ? (
          <TicketQr
            code={ticket.code}
            label={intl.formatMessage({ id: 'myTickets.qr', defaultMessage: 'QR code of ticket {code}' }, { code: ticket.code })}
          />
        ) : (
          // A refunded ticket shows nothing to scan: a code on the screen would look valid.
          <Center w={180} h={180} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
            <Stack gap={4} align="center" px="md">
              <Text fw={700} c="red">
                {ticket.eventStatus === 'cancelled' ? (
                  <FormattedMessage id="myTickets.eventCancelled" defaultMessage="Event cancelled" />
                ) : ownTicket ? (
                  // Void and not the order's: refunded by its buyer, or sent on by its holder (then the new one is theirs).
                  <FormattedMessage id="myTickets.noLongerValid" defaultMessage="No longer valid" />
                ) : ticket.freeOrder ? (
                  <FormattedMessage id="myTickets.cancelled" defaultMessage="Cancelled" />
                ) : (
                  <FormattedMessage id="myTickets.refunded" defaultMessage="Refunded" />
                )}
              </Text>
              <Text size="sm" c="dimmed">
                {ticket.eventStatus === 'cancelled' && ownTicket ? (
                  // The money was its buyer's: said to them, not to whom they gave the ticket.
                  <FormattedMessage id="myTickets.refundedNote" defaultMessage="This ticket no longer admits anyone." />
                ) : ticket.eventStatus === 'cancelled' && ticket.freeOrder ? (
                  <FormattedMessage
                    id="myTickets.eventCancelledFreeNote"
                    defaultMessage="Your free ticket is cancelled: there is nothing to refund."
                  />
                ) : ticket.eventStatus === 'cancelled' ? (
                  <FormattedMessage id="myTickets.eventCancelledNote" defaultMessage="Your money is refunded in full." />
                ) : ownTicket ? (
                  <FormattedMessage
                    id="myTickets.noLongerValidNote"
                    defaultMessage="It was refunded, or sent on to someone else. It no longer admits anyone."
                  />
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
          {ticket.checkedInAt && (
            <Badge variant="light" color="green">
              <FormattedMessage id="myTickets.admitted" defaultMessage="Admitted" />
            </Badge>
          )}
        </Group>
        <TicketHolder ticket={ticket} editable={holderEditable(ticket)} accessToken={accessToken} />
        {ticket.receivedFrom && (
          <Text size="sm" c="dimmed">
            <FormattedMessage
              id="myTickets.receivedFrom"
              defaultMessage="From {name}"
              values={{ name: <bdi>{ticket.receivedFrom}</bdi> }}
            />
          </Text>
        )}
        {valid && <Code>{ticket.code}</Code>}
        {valid && (
          <WalletButtons ticket={ticket} accessToken={accessToken}>
            {ownTicket ? (
              <Button
                component="a"
                href={ticketPdfPath(ticket.id, accessToken)}
                download
                variant="light"
                size="xs"
                leftSection={<IconDownload size={16} aria-hidden />}
              >
                <FormattedMessage id="tickets.pdf.downloadOne" defaultMessage="Download the ticket (PDF)" />
              </Button>
            ) : (
              <TicketsPdfLink orderId={ticket.orderId} size="xs" variant="light" />
            )}
          </WalletButtons>
        )}
        {!ownTicket && (
          <AnchorLink to="/orders/$orderId" params={{ orderId: ticket.orderId }} size="sm">
            <FormattedMessage id="myTickets.order" defaultMessage="Order and payment" />
          </AnchorLink>
        )}
        {valid && ticket.checkedInAt === null && (transferShown(ticket) || resaleShown(ticket)) && (
          <>
            <Divider w="100%" />
            <TicketTransfer ticket={ticket} timeZone={ticket.timeZone} accessToken={accessToken} />
            <TicketResale ticket={ticket} accessToken={accessToken} />
          </>
        )}
      </Stack>
    </Card>
  );
}
