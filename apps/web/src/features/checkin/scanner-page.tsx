import { attendees as attendeesQuery, checkInCounts, scannerKit } from '@admit/shared/checkin';
import { Badge, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useMutationState } from '@tanstack/react-query';
import { memo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { DeviceNameForm, useDeviceName } from './device-name';
import { Door } from './door';
import { LiveRecentScans } from './recent-scans';

/**
 * The door (staff and above): the event's attendee list kept on the device, a field that takes
 * typed codes, USB and Bluetooth scanners (which type and press Enter) and names, the camera, and
 * the verdict of each scan at once — with no network too, the scans then wait and sync in order.
 *
 * The verdict must show within 100 ms on a phone (bench/scanner-10k), so each part watches only
 * what it shows: a scan re-renders the field and the verdict; a live change re-renders the part it
 * changed, never the whole page.
 */
export function ScannerPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const [device, setDevice] = useDeviceName();
  const kit = useLiveQuery(scannerKit, { eventId });
  const list = useLiveQuery(attendeesQuery, { eventId });
  const title = kit.rows?.[0]?.title;
  usePageTitle(title && intl.formatMessage({ id: 'pageTitle.scanner', defaultMessage: 'Check-in: {event}' }, { event: title }));

  if (!device) return <DeviceNameForm onSave={setDevice} />;
  if (kit.error) return <ErrorState error={kit.error} />;
  if (list.error) return <ErrorState error={list.error} />;
  if (!kit.rows || !list.rows) return <PageLoader />;
  const event = kit.rows[0]!;

  return (
    <Stack gap="md" maw={720} mx="auto" w="100%">
      <ScannerHeader eventId={eventId} title={event.title} device={device} onRename={setDevice} />
      <LiveCounts eventId={eventId} />
      <ScansWaiting />
      <Door eventId={eventId} device={device} attendees={list.rows} checkinKey={event.checkinKey} />
      <LiveRecentScans eventId={eventId} />
    </Stack>
  );
}

const ScannerHeader = memo(function ScannerHeader({
  eventId,
  title,
  device,
  onRename,
}: {
  eventId: string;
  title: string;
  device: string;
  onRename: (name: string | null) => void;
}) {
  return (
    <Stack gap={2}>
      <AnchorLink to="/manage/events/$eventId" params={{ eventId }} size="sm">
        {title}
      </AnchorLink>
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          <FormattedMessage id="scanner.title" defaultMessage="Check-in" />
        </Title>
        <Group gap="xs">
          <Badge variant="light" color="gray" size="lg">
            {device}
          </Badge>
          <Button variant="subtle" size="xs" onClick={() => onRename(null)}>
            <FormattedMessage id="scanner.renameDevice" defaultMessage="Rename" />
          </Button>
        </Group>
      </Group>
    </Stack>
  );
});

const ScansWaiting = memo(function ScansWaiting() {
  const waiting = useMutationState({
    filters: { mutationKey: ['checkin'], status: 'pending' },
    select: (mutation) => mutation.mutationId,
  }).length;
  if (waiting === 0) return null;
  return (
    <Badge color="orange" variant="light" size="lg" role="status" data-testid="scans-waiting">
      <FormattedMessage
        id="scanner.waiting"
        defaultMessage="{count, plural, one {# scan waiting to sync} other {# scans waiting to sync}}"
        values={{ count: waiting }}
      />
    </Badge>
  );
});

const LiveCounts = memo(function LiveCounts({ eventId }: { eventId: string }) {
  const { rows } = useLiveQuery(checkInCounts, { eventId });
  return <Counts rows={rows ?? []} />;
});

function Counts({ rows }: { rows: { id: string; name: string; checkedIn: number; total: number }[] }) {
  const checkedIn = rows.reduce((sum, row) => sum + row.checkedIn, 0);
  const total = rows.reduce((sum, row) => sum + row.total, 0);
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Text fw={700} size="lg" data-testid="checked-in-total">
          <FormattedMessage
            id="scanner.counts.total"
            defaultMessage="{checkedIn, number} of {total, number} checked in"
            values={{ checkedIn, total }}
          />
        </Text>
        <Progress value={total === 0 ? 0 : (checkedIn / total) * 100} aria-hidden />
        <Group gap="md">
          {rows.map((row) => (
            <Text key={row.id} size="sm" c="dimmed">
              <FormattedMessage
                id="scanner.counts.type"
                defaultMessage="{name}: {checkedIn, number}/{total, number}"
                values={{ name: row.name, checkedIn: row.checkedIn, total: row.total }}
              />
            </Text>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}
