import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveOffline } from '../lib/live';

/** When the newest row on screen arrived: the "as of" time of the offline notice. */
function savedAt(queryClient: QueryClient): number | null {
  const times = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.queryKey[0] === 'live' && query.state.dataUpdatedAt > 0)
    .map((query) => query.state.dataUpdatedAt);
  return times.length > 0 ? Math.max(...times) : null;
}

/** While the live channel is down: says so, and how old the saved data on screen is. */
export function OfflineNotice() {
  const intl = useIntl();
  const offline = useLiveOffline();
  const queryClient = useQueryClient();
  if (!offline) return null;
  const asOf = savedAt(queryClient);
  return (
    <Alert color="gray" variant="light" icon={<IconCloudOff aria-hidden />} role="status" mb="md" py="xs">
      {asOf === null ? (
        <FormattedMessage id="offline.nothingSaved" defaultMessage="Offline — trying to reconnect" />
      ) : (
        <FormattedMessage
          id="offline.savedAsOf"
          defaultMessage="Offline — showing saved data as of {time}"
          values={{ time: intl.formatTime(asOf, { hour: 'numeric', minute: '2-digit' }) }}
        />
      )}
    </Alert>
  );
}
