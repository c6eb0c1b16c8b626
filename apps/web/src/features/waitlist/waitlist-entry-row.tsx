import type { WaitlistEntryRow } from '@admit/shared/waitlist';
import { Button, Group, Table, Text } from '@mantine/core';
import { memo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { WaitlistStatusBadge } from './waitlist-status-badge';

/** The columns' names, which each cell carries for the stacked rows of a phone (lib/scroll-table.tsx). */
export interface WaitlistColumns {
  position: string;
  name: string;
  email: string;
  type: string;
  quantity: string;
  status: string;
  joined: string;
  offer: string;
}

/**
 * One entry of the organizers' list. Memoized by its row: a list of thousands changes one entry at a
 * time, and the live rows keep their objects while unchanged (lib/live.ts).
 */
export const WaitlistEntryRowView = memo(function WaitlistEntryRowView({
  entry,
  typeName,
  timeZone,
  columns,
  offering,
  onOffer,
  onRemove,
}: {
  entry: WaitlistEntryRow;
  typeName: string;
  /** The event's: times are written in it, as the event's other lists write them. */
  timeZone: string;
  columns: WaitlistColumns;
  offering: boolean;
  onOffer: (entry: WaitlistEntryRow) => void;
  onRemove: (entry: WaitlistEntryRow) => void;
}) {
  const intl = useIntl();
  const when = (at: string) => (
    <time dateTime={at}>{intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short', timeZone })}</time>
  );
  const { offer } = entry;
  return (
    <Table.Tr data-testid="waitlist-row" data-status={entry.status}>
      {/* Empty, and without its column's name on a phone, for an entry that no longer waits or was offered nothing. */}
      <Table.Td data-label={entry.position === null ? undefined : columns.position}>
        {entry.position !== null && <Text fw={600}>{intl.formatNumber(entry.position)}</Text>}
      </Table.Td>
      <Table.Td data-label={columns.name}>{entry.name}</Table.Td>
      <Table.Td data-label={columns.email} style={{ wordBreak: 'break-all' }}>
        {entry.email}
      </Table.Td>
      <Table.Td data-label={columns.type}>{typeName}</Table.Td>
      <Table.Td data-label={columns.quantity}>{intl.formatNumber(entry.quantity)}</Table.Td>
      <Table.Td data-label={columns.status}>
        <WaitlistStatusBadge status={entry.status} />
      </Table.Td>
      <Table.Td data-label={columns.joined}>{when(entry.joinedAt)}</Table.Td>
      <Table.Td data-label={offer ? columns.offer : undefined}>
        {offer && (
          <>
            <Text size="sm">
              <FormattedMessage
                id="waitlist.offer.made"
                defaultMessage="{count, plural, one {# place on {at}} other {# places on {at}}}"
                values={{ count: offer.quantity, at: when(offer.offeredAt) }}
              />
            </Text>
            {entry.status === 'offered' && (
              <Text size="xs" c="dimmed">
                <FormattedMessage
                  id="waitlist.offer.heldUntil"
                  defaultMessage="Held until {at}"
                  values={{ at: when(offer.expiresAt) }}
                />
              </Text>
            )}
          </>
        )}
      </Table.Td>
      <Table.Td data-action>
        {entry.status === 'waiting' && (
          <Group gap={4} wrap="nowrap">
            <Button
              variant="subtle"
              size="compact-sm"
              loading={offering}
              onClick={() => onOffer(entry)}
              // The visible words first, as a voice command says them.
              aria-label={intl.formatMessage(
                { id: 'waitlist.offerTo', defaultMessage: 'Offer now to {name}' },
                { name: entry.name },
              )}
            >
              <FormattedMessage id="waitlist.offer" defaultMessage="Offer now" />
            </Button>
            <Button
              variant="subtle"
              color="red"
              size="compact-sm"
              onClick={() => onRemove(entry)}
              aria-label={intl.formatMessage({ id: 'waitlist.removeOf', defaultMessage: 'Remove {name}' }, { name: entry.name })}
            >
              <FormattedMessage id="waitlist.remove" defaultMessage="Remove" />
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
});
