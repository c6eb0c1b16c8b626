import { orderMessages, type OrderMessageRow } from '@admit/shared/attendee-messages';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatRange } from '../../lib/dates';
import { useLiveQuery } from '../../lib/live';

/** The organizer's messages to the holders of this order's tickets, newest first; nothing while there are none. */
export function OrderMessages({ eventId, orderId }: { eventId: string; orderId: string }) {
  const intl = useIntl();
  const { rows } = useLiveQuery(orderMessages, { eventId, orderId });
  if (!rows || rows.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="order-messages">
      <Title order={2} size="h4" id="order-messages">
        <FormattedMessage id="orderMessages.title" defaultMessage="Messages from the organizer" />
      </Title>
      {rows.map((message) => {
        const title = message.change
          ? intl.formatMessage({ id: 'orderMessages.change.title', defaultMessage: 'The time or place has changed' })
          : message.subject;
        return (
          <Card key={message.id} withBorder padding="md" component="article" aria-label={title}>
            <Stack gap={4}>
              <Title order={3} size="h5" dir="auto">
                {title}
              </Title>
              <Text size="xs" c="dimmed">
                <FormattedMessage
                  id="orderMessages.from"
                  defaultMessage="From {organizer} · {when}"
                  values={{
                    organizer: message.organizationName,
                    when: intl.formatDate(message.createdAt, { dateStyle: 'medium', timeStyle: 'short' }),
                  }}
                />
              </Text>
              {message.change ? (
                <ChangeLines change={message.change} />
              ) : (
                <Text size="sm" style={{ whiteSpace: 'pre-line' }} dir="auto" mt={4}>
                  {message.body}
                </Text>
              )}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}

/** What a change of time or place was and is, in the event's zone: only what changed. */
function ChangeLines({ change }: { change: NonNullable<OrderMessageRow['change']> }) {
  const intl = useIntl();
  const { before, after, timeZone } = change;
  const range = (times: { startsAt: string; endsAt: string }) => formatRange(intl.locale, times.startsAt, times.endsAt, timeZone);
  const moved = before.startsAt !== after.startsAt || before.endsAt !== after.endsAt;
  return (
    <Stack gap={2} mt={4}>
      {moved && (
        <Text size="sm">
          <FormattedMessage
            id="orderMessages.change.when"
            defaultMessage="When: <strong>{after}</strong> (was {before})"
            values={{ after: range(after), before: range(before), strong: (chunks) => <strong>{chunks}</strong> }}
          />
        </Text>
      )}
      {before.venue !== after.venue && (
        <Text size="sm" dir="auto">
          <FormattedMessage
            id="orderMessages.change.where"
            defaultMessage="Where: <strong>{after}</strong> (was {before})"
            values={{ after: after.venue, before: before.venue, strong: (chunks) => <strong>{chunks}</strong> }}
          />
        </Text>
      )}
    </Stack>
  );
}
