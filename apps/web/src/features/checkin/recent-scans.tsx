import { recentScans } from '@admit/shared/checkin';
import { Badge, Card, Stack, Table, Text, Title } from '@mantine/core';
import { memo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLiveQuery } from '../../lib/live';
import { ResultCell } from './result-cell';

/** The latest scans at all doors, live: its own subscription, so a new scan re-renders this card, not the page. */
export const LiveRecentScans = memo(function LiveRecentScans({ eventId }: { eventId: string }) {
  const { rows } = useLiveQuery(recentScans, { eventId });
  return <RecentScans rows={rows ?? []} />;
});

interface RecentScanRow {
  id: string;
  result: string;
  device: string;
  scannedAt: string;
  undone: boolean;
  holderName: string | null;
}

function RecentScans({ rows }: { rows: RecentScanRow[] }) {
  const intl = useIntl();
  if (rows.length === 0) return null;
  return (
    // Below the fold on a phone: the browser lays it out and paints it only when it is scrolled to,
    // not each time a verdict above it changes height.
    <Card withBorder padding="md" style={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 1200px' }}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          <FormattedMessage id="scanner.recent" defaultMessage="Latest scans at all doors" />
        </Title>
        <Table aria-label={intl.formatMessage({ id: 'scanner.recent', defaultMessage: 'Latest scans at all doors' })}>
          <Table.Tbody>
            {rows.map((row) => (
              <RecentScan key={row.id} row={row} />
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

/** One scan of the log (a new scan adds one row; the others, the same objects, are not rendered again). */
const RecentScan = memo(function RecentScan({ row }: { row: RecentScanRow }) {
  const intl = useIntl();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {row.holderName}
        </Text>
        <Text size="xs" c="dimmed">
          <FormattedMessage
            id="scanner.recent.when"
            defaultMessage="{time} · {device}"
            values={{
              time: intl.formatTime(row.scannedAt, { hour: 'numeric', minute: '2-digit' }),
              device: row.device,
            }}
          />
        </Text>
      </Table.Td>
      <ResultCell>
        <RecentResult result={row.result} undone={row.undone} />
      </ResultCell>
    </Table.Tr>
  );
});

function RecentResult({ result, undone }: { result: string; undone: boolean }) {
  if (undone)
    return (
      <Badge color="gray" variant="light">
        <FormattedMessage id="scanner.result.undone" defaultMessage="Undone" />
      </Badge>
    );
  switch (result) {
    case 'accepted':
      return (
        <Badge color="green" variant="light">
          <FormattedMessage id="scanner.result.accepted" defaultMessage="Admitted" />
        </Badge>
      );
    case 'duplicate':
      return (
        <Badge color="orange" variant="light">
          <FormattedMessage id="scanner.result.duplicate" defaultMessage="Already checked in" />
        </Badge>
      );
    case 'void':
      return (
        <Badge color="red" variant="light">
          <FormattedMessage id="scanner.result.void" defaultMessage="Void" />
        </Badge>
      );
    default:
      return (
        <Badge color="red" variant="light">
          <FormattedMessage id="scanner.result.unknown" defaultMessage="Unknown" />
        </Badge>
      );
  }
}
