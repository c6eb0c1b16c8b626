import { Stack, Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatRange, useViewerTimeZone, zonesDiffer } from '../../lib/dates';

/** When an event happens, in its own zone, and in the viewer's zone where that shows another time. */
export function EventTime({
  startsAt,
  endsAt,
  timeZone,
  size = 'md',
}: {
  startsAt: string;
  endsAt: string;
  timeZone: string;
  size?: string;
}) {
  const intl = useIntl();
  const viewerZone = useViewerTimeZone();
  const showViewer = viewerZone !== null && zonesDiffer(new Date(startsAt), timeZone, viewerZone);
  return (
    <Stack gap={2}>
      <Text size={size} fw={500}>
        <time dateTime={startsAt}>{formatRange(intl.locale, startsAt, endsAt, timeZone)}</time>
      </Text>
      {showViewer && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="event.time.viewer"
            defaultMessage="Your time: {range}"
            values={{ range: formatRange(intl.locale, startsAt, endsAt, viewerZone!) }}
          />
        </Text>
      )}
    </Stack>
  );
}
