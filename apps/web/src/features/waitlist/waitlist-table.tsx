import { exportPath } from '@admit/shared/csv';
import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import {
  eventWaitlist,
  offerWaitlistEntry,
  removeWaitlistEntry,
  waitlistLimits,
  type WaitlistEntryRow,
} from '@admit/shared/waitlist';
import { Alert, Anchor, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { DialogFooter } from '../../lib/dialog-footer';
import { useErrorMessage } from '../../lib/error-message';
import { useLocale } from '../../lib/i18n';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { ScrollTable } from '../../lib/scroll-table';
import { WaitlistEntryRowView, type WaitlistColumns } from './waitlist-entry-row';

/**
 * The people on the event's list, first to join first, live; an entry that waits can be offered its
 * places now, out of turn (when enough are free), or taken off. The whole list is a CSV file.
 */
export function WaitlistTable({ event, types }: { event: ManagedEventRow; types: readonly ManagedTicketTypeRow[] }) {
  const intl = useIntl();
  const { locale } = useLocale();
  const errorMessage = useErrorMessage();
  const entries = useLiveQuery(eventWaitlist, { eventId: event.id });
  const [removing, setRemoving] = useState<WaitlistEntryRow | null>(null);
  const offering = useMutation({
    mutationFn: (entry: WaitlistEntryRow) => callFunction(offerWaitlistEntry, { entryId: entry.id }),
    onSuccess: (_offered, entry) =>
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'waitlist.offer.done',
            defaultMessage:
              '{count, plural, one {# place is held for {name}, who can take it now.} other {# places are held for {name}, who can take them now.}}',
          },
          { count: entry.quantity, name: entry.name },
        ),
      }),
  });
  const label = intl.formatMessage({ id: 'waitlist.list', defaultMessage: 'People on the waiting list' });
  const columns = useMemo<WaitlistColumns>(
    () => ({
      position: intl.formatMessage({ id: 'waitlist.col.position', defaultMessage: 'Place' }),
      name: intl.formatMessage({ id: 'waitlist.col.name', defaultMessage: 'Name' }),
      email: intl.formatMessage({ id: 'waitlist.col.email', defaultMessage: 'Email' }),
      type: intl.formatMessage({ id: 'waitlist.col.type', defaultMessage: 'Ticket type' }),
      quantity: intl.formatMessage({ id: 'waitlist.col.quantity', defaultMessage: 'Tickets' }),
      status: intl.formatMessage({ id: 'waitlist.col.status', defaultMessage: 'Status' }),
      joined: intl.formatMessage({ id: 'waitlist.col.joined', defaultMessage: 'Joined' }),
      offer: intl.formatMessage({ id: 'waitlist.col.offer', defaultMessage: 'Offer' }),
    }),
    [intl],
  );
  const nameOf = (id: string) => types.find((type) => type.id === id)?.name ?? '—';

  if (entries.error) return <ErrorState error={entries.error} />;
  if (!entries.rows) return <PageLoader />;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h4">
          {label}
        </Title>
        {entries.rows.length > 0 && (
          <Anchor href={exportPath(event.id, 'waitlist', { excel: false, locale })} download size="sm">
            <FormattedMessage id="waitlist.download" defaultMessage="Download the waiting list (CSV)" />
          </Anchor>
        )}
      </Group>
      {entries.rows.length === 0 && (
        <Text c="dimmed">
          <FormattedMessage id="waitlist.none" defaultMessage="Nobody is on the waiting list yet." />
        </Text>
      )}
      {entries.rows.length >= waitlistLimits.shown && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="waitlist.firstShown"
            defaultMessage="The first {count, number} entries are shown, in the order they joined; the CSV file lists every one."
            values={{ count: waitlistLimits.shown }}
          />
        </Text>
      )}
      {offering.error && (
        <Alert color="red" role="alert">
          {errorMessage(offering.error)}
        </Alert>
      )}
      {entries.rows.length > 0 && (
        <ScrollTable label={label} minWidth={1100} stacked>
          <Table verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{columns.position}</Table.Th>
                <Table.Th>{columns.name}</Table.Th>
                <Table.Th>{columns.email}</Table.Th>
                <Table.Th>{columns.type}</Table.Th>
                <Table.Th>{columns.quantity}</Table.Th>
                <Table.Th>{columns.status}</Table.Th>
                <Table.Th>{columns.joined}</Table.Th>
                <Table.Th>{columns.offer}</Table.Th>
                <Table.Th>
                  <FormattedMessage id="waitlist.col.actions" defaultMessage="Actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.rows.map((entry) => (
                <WaitlistEntryRowView
                  key={entry.id}
                  entry={entry}
                  typeName={nameOf(entry.ticketTypeId)}
                  timeZone={event.timeZone}
                  columns={columns}
                  offering={offering.isPending && offering.variables.id === entry.id}
                  onOffer={offering.mutate}
                  onRemove={setRemoving}
                />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {removing && <RemoveEntryDialog entry={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

/** Taking a waiting entry off the list: it loses its place, so it is asked first. */
function RemoveEntryDialog({ entry, onClose }: { entry: WaitlistEntryRow; onClose: () => void }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: () => callFunction(removeWaitlistEntry, { entryId: entry.id }),
    onSuccess: onClose,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={intl.formatMessage(
        { id: 'waitlist.remove.title', defaultMessage: 'Take {name} off the waiting list?' },
        { name: entry.name },
      )}
    >
      <Stack>
        <Text>
          <FormattedMessage
            id="waitlist.remove.body"
            defaultMessage="{name} ({email}) loses their place in the queue and is offered nothing more. They can join again while the tickets are sold out."
            values={{ name: entry.name, email: entry.email }}
          />
        </Text>
        <DialogFooter
          error={mutation.error && errorMessage(mutation.error)}
          cancel={<FormattedMessage id="waitlist.remove.keep" defaultMessage="Keep them on the list" />}
          confirm={<FormattedMessage id="waitlist.remove.confirm" defaultMessage="Take off the list" />}
          pending={mutation.isPending}
          onCancel={onClose}
          onConfirm={() => mutation.mutate()}
          danger
        />
      </Stack>
    </Modal>
  );
}
