import { orderMessages } from '@admit/shared/attendee-messages';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
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
      {rows.map((message) => (
        <Card key={message.id} withBorder padding="md" component="article" aria-label={message.subject}>
          <Stack gap={4}>
            <Title order={3} size="h5" dir="auto">
              {message.subject}
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
            <Text size="sm" style={{ whiteSpace: 'pre-line' }} dir="auto" mt={4}>
              {message.body}
            </Text>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
