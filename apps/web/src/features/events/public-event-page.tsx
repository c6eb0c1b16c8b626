import { publicEvent, type PublicEventRow } from '@admit/shared/events';
import { Alert, Badge, Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { EventStatusBadge } from './event-status-badge';
import { EventTime } from './event-time';

export function PublicEventPage({ slug, tickets }: { slug: string; tickets: (event: PublicEventRow) => ReactNode }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(publicEvent, { slug });
  if (error) return <ErrorState error={error} />;
  const event = rows?.[0];
  if (!event) return <PageLoader />;
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="md">
          <Group gap="xs">
            <Text c="dimmed" size="sm">
              {event.organizationName}
            </Text>
            {event.status !== 'published' && <EventStatusBadge status={event.status} />}
          </Group>
          <Title order={1}>{event.title}</Title>
          {event.status === 'draft' && (
            <Alert color="yellow">
              <FormattedMessage
                id="event.draftPreview"
                defaultMessage="This is a preview: the event is a draft and only your organization can see it."
              />
            </Alert>
          )}
          <Card withBorder padding="md">
            <Stack gap="sm">
              <div>
                <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
                  <FormattedMessage id="event.when" defaultMessage="When" />
                </Text>
                <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
              </div>
              <div>
                <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
                  <FormattedMessage id="event.where" defaultMessage="Where" />
                </Text>
                <Text fw={500}>{event.venue}</Text>
              </div>
              <Group gap="xs">
                {event.remaining === 0 ? (
                  <Badge color="red">
                    <FormattedMessage id="event.soldOut" defaultMessage="Sold out" />
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed" aria-live="polite">
                    <FormattedMessage
                      id="event.placesLeft"
                      defaultMessage="{count, plural, one {# place left} other {# places left}}"
                      values={{ count: event.remaining }}
                    />
                  </Text>
                )}
              </Group>
            </Stack>
          </Card>
          {event.description && (
            <Stack gap={4}>
              <Title order={2} size="h4">
                <FormattedMessage id="event.about" defaultMessage="About this event" />
              </Title>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{event.description}</Text>
            </Stack>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <section aria-label={intl.formatMessage({ id: 'event.ticketsSection', defaultMessage: 'Tickets' })}>
          {tickets(event)}
        </section>
      </Grid.Col>
    </Grid>
  );
}
