import { eventAudit, type AuditRow } from '@admit/shared/event-changes';
import { Card, Stack, Text, Timeline, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { untyped } from '../../lib/messages';
import { ErrorState } from '../../lib/page-state';

const actions = untyped(
  defineMessages({
    'event.create': { id: 'audit.event.create', defaultMessage: '{actor} created the event' },
    'event.update': { id: 'audit.event.update', defaultMessage: '{actor} changed {fields}' },
    'event.publish': { id: 'audit.event.publish', defaultMessage: '{actor} published the event' },
    'event.unpublish': { id: 'audit.event.unpublish', defaultMessage: '{actor} moved the event back to draft' },
    'event.closeSales': { id: 'audit.event.closeSales', defaultMessage: '{actor} closed sales' },
    'event.reopenSales': { id: 'audit.event.reopenSales', defaultMessage: '{actor} reopened sales' },
    'event.end': { id: 'audit.event.end', defaultMessage: '{actor} marked the event as ended' },
    'event.cancel': { id: 'audit.event.cancel', defaultMessage: '{actor} cancelled the event' },
    'event.delete': { id: 'audit.event.delete', defaultMessage: '{actor} deleted the draft' },
    'event.message': {
      id: 'audit.event.message',
      defaultMessage: '{actor} wrote to the ticket holders: “{target}”',
    },
    'event.changeNotice': {
      id: 'audit.event.changeNotice',
      defaultMessage: '{actor} emailed the ticket holders about the new time or place',
    },
    'event.setContent': { id: 'audit.event.setContent', defaultMessage: '{actor} changed the languages of the event' },
    'event.setEmbedSites': {
      id: 'audit.event.setEmbedSites',
      defaultMessage: '{actor} changed the websites allowed to show the checkout',
    },
    'ticketType.add': { id: 'audit.ticketType.add', defaultMessage: '{actor} added the ticket type “{target}”' },
    'ticketType.update': { id: 'audit.ticketType.update', defaultMessage: '{actor} changed {fields} of “{target}”' },
    'ticketType.reorder': { id: 'audit.ticketType.reorder', defaultMessage: '{actor} reordered the ticket types' },
    'ticketType.remove': { id: 'audit.ticketType.remove', defaultMessage: '{actor} removed the ticket type “{target}”' },
    'code.add': { id: 'audit.code.add', defaultMessage: '{actor} added the code {target}' },
    'code.update': { id: 'audit.code.update', defaultMessage: '{actor} changed the code {target}' },
    'code.remove': { id: 'audit.code.remove', defaultMessage: '{actor} deleted the code {target}' },
    'code.generate': { id: 'audit.code.generate', defaultMessage: '{actor} made {target} codes at once' },
    'waitlist.open': { id: 'audit.waitlist.open', defaultMessage: '{actor} opened the waiting list' },
    'waitlist.close': { id: 'audit.waitlist.close', defaultMessage: '{actor} closed the waiting list' },
    'waitlist.offer': { id: 'audit.waitlist.offer', defaultMessage: '{actor} offered places to {target} from the waiting list' },
    'waitlist.remove': { id: 'audit.waitlist.remove', defaultMessage: '{actor} took {target} off the waiting list' },
    'transfers.open': { id: 'audit.transfers.open', defaultMessage: '{actor} let ticket holders send their tickets on' },
    'transfers.close': { id: 'audit.transfers.close', defaultMessage: '{actor} turned off sending tickets on' },
    'ticket.transfer': {
      id: 'audit.ticket.transfer',
      defaultMessage: '{actor} took over the ticket that was in the name of {target}',
    },
    other: { id: 'audit.other', defaultMessage: '{actor} made a change ({action})' },
  }),
);

const fieldNames = untyped(
  defineMessages({
    title: { id: 'audit.field.title', defaultMessage: 'the title' },
    description: { id: 'audit.field.description', defaultMessage: 'the description' },
    venue: { id: 'audit.field.venue', defaultMessage: 'the venue' },
    timeZone: { id: 'audit.field.timeZone', defaultMessage: 'the time zone' },
    startsAt: { id: 'audit.field.startsAt', defaultMessage: 'the start' },
    endsAt: { id: 'audit.field.endsAt', defaultMessage: 'the end' },
    capacity: { id: 'audit.field.capacity', defaultMessage: 'the capacity' },
    currency: { id: 'audit.field.currency', defaultMessage: 'the currency' },
    name: { id: 'audit.field.name', defaultMessage: 'the name' },
    price: { id: 'audit.field.price', defaultMessage: 'the price' },
    maxPerOrder: { id: 'audit.field.maxPerOrder', defaultMessage: 'the limit per order' },
    maxPerBuyer: { id: 'audit.field.maxPerBuyer', defaultMessage: 'the limit per buyer' },
    salesStart: { id: 'audit.field.salesStart', defaultMessage: 'the sales start' },
    salesEnd: { id: 'audit.field.salesEnd', defaultMessage: 'the sales end' },
    hidden: { id: 'audit.field.hidden', defaultMessage: 'the visibility' },
  }),
);

function useDescribe() {
  const intl = useIntl();
  return (row: AuditRow): ReactNode => {
    const known = row.action in actions ? actions[row.action as keyof typeof actions] : actions.other;
    const fields = Array.isArray(row.details.fields)
      ? intl.formatList(
          (row.details.fields as string[]).map((field) =>
            field in fieldNames ? intl.formatMessage(fieldNames[field as keyof typeof fieldNames]) : field,
          ),
        )
      : '';
    const actor = (
      <Text span fw={600} key="actor">
        {row.actorName}
      </Text>
    );
    return intl.formatMessage(known, { fields, target: row.target, action: row.action, actor });
  };
}

/** Who changed what on the event, newest first, live: for its admins. */
export function EventAudit({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(eventAudit, { eventId });
  const describe = useDescribe();
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          <FormattedMessage id="audit.title" defaultMessage="Changes" />
        </Title>
        {error && <ErrorState error={error} />}
        {rows && (
          <Timeline bulletSize={12} lineWidth={2}>
            {rows.slice(0, 50).map((row) => (
              <Timeline.Item key={row.id}>
                <Text size="sm">{describe(row)}</Text>
                <Text size="xs" c="dimmed">
                  {intl.formatDate(row.at, { dateStyle: 'medium', timeStyle: 'short' })}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Card>
  );
}
