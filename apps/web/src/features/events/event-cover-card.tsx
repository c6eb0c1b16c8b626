import type { ManagedEventRow } from '@admit/shared/events';
import { Card, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { PictureUpload } from '../../lib/picture-upload';

/** The event's cover for its admins: chosen, previewed in its crops, replaced or removed. */
export function EventCoverCard({ event }: { event: ManagedEventRow }) {
  const intl = useIntl();
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          <FormattedMessage id="cover.title" defaultMessage="Cover picture" />
        </Title>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="cover.body"
            defaultMessage="Shown on the event's page, in the list of events, on orders, in the confirmation email and on the tickets. Location and camera data are removed."
          />
        </Text>
        <PictureUpload
          endpoint={`/files/events/${encodeURIComponent(event.id)}/cover`}
          current={event.cover}
          label={intl.formatMessage({ id: 'cover.drop.label', defaultMessage: 'Cover picture of the event' })}
          crops={['wide', 'square']}
        />
      </Stack>
    </Card>
  );
}
