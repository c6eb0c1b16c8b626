import { managedTicketTypes } from '@admit/shared/event-changes';
import { managedEvent } from '@admit/shared/events';
import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { AnchorLink, BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { usePageTitle } from '../../lib/page-title';
import { managesEvents, useOrgRole } from '../../lib/org-role';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { EmbedCard } from './embed-card';
import { EventActions } from './event-actions';
import { EventAudit } from './event-audit';
import { EventCoverCard } from './event-cover-card';
import { EventLanguagesCard } from './event-languages-card';
import { EventStatusBadge } from './event-status-badge';
import { EventTime } from './event-time';
import { TicketTypesCard } from './ticket-types-card';

/**
 * One event for its team. Admins and owners change it (fields, ticket types, status) and see its
 * orders and audit log; staff see what the door needs (`door`: check-ins, the scanner, the attendee
 * list) and nothing they could not use.
 */
export function EventEditorPage({
  eventId,
  door,
  admin,
}: {
  eventId: string;
  door: (isAdmin: boolean) => ReactNode;
  admin: ReactNode;
}) {
  const eventQuery = useLiveQuery(managedEvent, { eventId });
  const event = eventQuery.rows?.[0];
  const role = useOrgRole(event?.organizationId);
  const isAdmin = managesEvents(role);
  const types = useLiveQuery(managedTicketTypes, { eventId }, { enabled: isAdmin });
  usePageTitle(event?.title);
  if (eventQuery.error) return <ErrorState error={eventQuery.error} />;
  if (!event || !role) return <PageLoader />;
  const editable = event.status !== 'cancelled' && event.status !== 'ended';

  return (
    <Stack gap="lg">
      <BackLink to="/manage/orgs/$organizationId" params={{ organizationId: event.organizationId }}>
        <FormattedMessage id="editor.back" defaultMessage="All events" />
      </BackLink>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1}>{event.title}</Title>
            <EventStatusBadge status={event.status} />
          </Group>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
          <Text c="dimmed">{event.venue}</Text>
          <AnchorLink to="/e/$slug" params={{ slug: event.slug }} size="sm">
            {event.status === 'draft' ? (
              <FormattedMessage id="editor.preview" defaultMessage="Preview page" />
            ) : (
              <FormattedMessage id="editor.viewPublic" defaultMessage="View public page" />
            )}
          </AnchorLink>
        </Stack>
        {isAdmin && <EventActions event={event} hasTicketTypes={(types.rows?.length ?? 0) > 0} />}
      </Group>
      {event.status === 'cancelled' && (
        <Alert color="red" title={<FormattedMessage id="editor.cancelled.title" defaultMessage="This event is cancelled" />}>
          <FormattedMessage
            id="editor.cancelled.body"
            defaultMessage="Every paid order is refunded in full and every buyer emailed; the orders below show each refund as it goes through."
          />
        </Alert>
      )}
      <Text>
        <FormattedMessage
          id="editor.capacity"
          defaultMessage="{sold, number} of {capacity, number} places taken"
          values={{ sold: event.sold, capacity: event.capacity }}
        />
        {event.held > 0 && (
          <>
            {' · '}
            <FormattedMessage
              id="editor.held"
              defaultMessage="{held, plural, one {# place held} other {# places held}} while buyers pay"
              values={{ held: event.held }}
            />
          </>
        )}
      </Text>
      {isAdmin && <TicketTypesCard eventId={eventId} currency={event.currency} editable={editable} />}
      {isAdmin && event.status !== 'cancelled' && types.rows && <EventLanguagesCard event={event} ticketTypes={types.rows} />}
      {isAdmin && event.status !== 'cancelled' && <EventCoverCard event={event} />}
      {isAdmin && event.status !== 'cancelled' && <EmbedCard event={event} />}
      {door(isAdmin)}
      {isAdmin && admin}
      {isAdmin && <EventAudit eventId={eventId} />}
    </Stack>
  );
}
