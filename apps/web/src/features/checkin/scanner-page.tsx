import {
  attendees as attendeesQuery,
  checkInCounts,
  recentScans,
  scannerKit,
  type AttendeeRow,
  ScanInput,
} from '@admit/shared/checkin';
import { Badge, Button, Card, Group, Loader, Progress, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useMutation, useMutationState } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { decide } from './decide';
import { DeviceNameForm, useDeviceName } from './device-name';
import { signal } from './feedback';
import { scanMutationKey, undoMutationKey, type UndoInput } from './offline-scans';
import { addScan, updateScan, useScanLog, verdictOf, type ScanEntry } from './scan-log';
import { ScanVerdict } from './scan-verdict';

const CameraScanner = lazy(() => import('./camera-scanner').then((module) => ({ default: module.CameraScanner })));

/** How many people a search shows at once (the list may hold 10,000). */
const searchLimit = 20;

/**
 * The door (staff and above): the event's attendee list kept on the device, a field that takes
 * typed codes, USB and Bluetooth scanners (which type and press Enter) and names, the camera, and
 * the verdict of each scan at once — with no network too, the scans then wait and sync in order.
 */
export function ScannerPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const [device, setDevice] = useDeviceName();
  const kit = useLiveQuery(scannerKit, { eventId });
  const list = useLiveQuery(attendeesQuery, { eventId });
  const counts = useLiveQuery(checkInCounts, { eventId });
  const recent = useLiveQuery(recentScans, { eventId });
  const log = useScanLog(eventId);
  const scan = useMutation<unknown, Error, ScanInput>({ mutationKey: scanMutationKey });
  const undo = useMutation<unknown, Error, UndoInput>({ mutationKey: undoMutationKey });
  const waiting = useMutationState({ filters: { mutationKey: ['checkin'], status: 'pending' } }).length;
  const [text, setText] = useState('');
  const [camera, setCamera] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const query = useDeferredValue(text.trim().toLowerCase());

  const rows = list.rows;
  const byCode = useMemo(() => new Map((rows ?? []).map((row) => [row.code, row])), [rows]);
  // Lower-cased once per list, not once per keystroke (10,000 people on a phone).
  const searchable = useMemo(
    () => (rows ?? []).map((row) => ({ row, text: `${row.holderName}\n${row.holderEmail ?? ''}`.toLowerCase() })),
    [rows],
  );
  const matches = useMemo(() => {
    if (query.length < 2) return [];
    const found: AttendeeRow[] = [];
    for (const { row, text } of searchable) {
      if (text.includes(query) || row.code.toLowerCase() === query) found.push(row);
      if (found.length === searchLimit) break;
    }
    return found;
  }, [searchable, query]);

  const checkIn = useCallback(
    async (code: string) => {
      if (!device) return;
      const entry: ScanEntry = {
        key: crypto.randomUUID(),
        eventId,
        code,
        device,
        scannedAt: new Date().toISOString(),
        local: await decide({ code, attendeesByCode: byCode, ownScans: log, checkinKey: kit.rows?.[0]?.checkinKey }),
      };
      const input = { eventId, code, device, scannedAt: entry.scannedAt, idempotencyKey: entry.key };
      // Something no ticket code can be (control characters, 200+ characters): unknown at once,
      // and never queued, where it would fail the whole batch it travels in.
      if (!ScanInput.safeParse(input).success) {
        const unknown = { ...entry, local: { result: 'unknown' as const } };
        addScan({ ...unknown, server: { checkInId: entry.key, result: 'unknown', ticket: null, firstCheckIn: null } });
        signal(unknown.local);
        return;
      }
      addScan(entry);
      signal(entry.local);
      scan.mutate(input);
    },
    [device, eventId, byCode, log, kit.rows, scan],
  );

  if (!device) return <DeviceNameForm onSave={setDevice} />;
  if (kit.error) return <ErrorState error={kit.error} />;
  if (!kit.rows || !rows) return <PageLoader />;
  const event = kit.rows[0]!;
  const latest = log[0];
  const canUndo = (entry: ScanEntry) => !entry.undone && ['accepted', 'provisional'].includes(verdictOf(entry).result);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    // A code (typed, or from a scanner that types): scan it. A name with one match: that person.
    const code = byCode.has(value) || matches.length !== 1 ? value : matches[0]!.code;
    setText('');
    void checkIn(code);
  };

  return (
    <Stack gap="md" maw={720} mx="auto" w="100%">
      <Stack gap={2}>
        <AnchorLink to="/manage/events/$eventId" params={{ eventId }} size="sm">
          {event.title}
        </AnchorLink>
        <Group justify="space-between" align="center">
          <Title order={1} size="h2">
            <FormattedMessage id="scanner.title" defaultMessage="Check-in" />
          </Title>
          <Group gap="xs">
            <Badge variant="light" color="gray" size="lg">
              {device}
            </Badge>
            <Button variant="subtle" size="xs" onClick={() => setDevice(null)}>
              <FormattedMessage id="scanner.renameDevice" defaultMessage="Rename" />
            </Button>
          </Group>
        </Group>
      </Stack>

      <Counts rows={counts.rows ?? []} />

      {waiting > 0 && (
        <Badge color="orange" variant="light" size="lg" role="status" data-testid="scans-waiting">
          <FormattedMessage
            id="scanner.waiting"
            defaultMessage="{count, plural, one {# scan waiting to sync} other {# scans waiting to sync}}"
            values={{ count: waiting }}
          />
        </Badge>
      )}

      <form onSubmit={submit}>
        <Stack gap="xs">
          <TextInput
            ref={field}
            size="md"
            autoFocus
            autoComplete="off"
            label={intl.formatMessage({ id: 'scanner.field', defaultMessage: 'Ticket code or name' })}
            description={intl.formatMessage({
              id: 'scanner.field.hint',
              defaultMessage: 'Scan a QR code, type a code, or search by name or email.',
            })}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <Group gap="xs" grow>
            <Button type="submit" size="md">
              <FormattedMessage id="scanner.checkIn" defaultMessage="Check in" />
            </Button>
            <Button
              size="md"
              variant="default"
              onClick={() => setCamera((open) => !open)}
              aria-pressed={camera}
              aria-label={intl.formatMessage({ id: 'scanner.camera', defaultMessage: 'Scan with the camera' })}
              leftSection={<IconCamera aria-hidden />}
            >
              <FormattedMessage id="scanner.camera.short" defaultMessage="Camera" />
            </Button>
          </Group>
        </Stack>
      </form>

      {camera && (
        <Suspense fallback={<Loader size="sm" />}>
          <CameraScanner onCode={(code) => void checkIn(code)} onClose={() => setCamera(false)} />
        </Suspense>
      )}

      {latest && (
        <ScanVerdict
          key={latest.key}
          entry={latest}
          onUndo={
            canUndo(latest)
              ? () => {
                  updateScan(eventId, latest.key, { undone: true });
                  undo.mutate({ eventId, scanKey: latest.key, device });
                  field.current?.focus();
                }
              : undefined
          }
        />
      )}

      {matches.length > 0 && (
        <SearchResults
          rows={matches}
          onCheckIn={(row) => {
            setText('');
            void checkIn(row.code);
            field.current?.focus();
          }}
        />
      )}

      <RecentScans rows={recent.rows ?? []} />
    </Stack>
  );
}

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

function SearchResults({ rows, onCheckIn }: { rows: AttendeeRow[]; onCheckIn: (row: AttendeeRow) => void }) {
  const intl = useIntl();
  return (
    <Card withBorder padding="sm">
      <Table aria-label={intl.formatMessage({ id: 'scanner.search.table', defaultMessage: 'People found' })}>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Text fw={600}>{row.holderName}</Text>
                <Text size="xs" c="dimmed">
                  {row.holderEmail === null ? (
                    row.ticketTypeName
                  ) : (
                    <FormattedMessage
                      id="scanner.search.detail"
                      defaultMessage="{email} · {type}"
                      values={{ email: row.holderEmail, type: row.ticketTypeName }}
                    />
                  )}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                {row.status === 'void' ? (
                  <Badge color="red">
                    <FormattedMessage id="scanner.search.void" defaultMessage="Void" />
                  </Badge>
                ) : row.checkedInAt ? (
                  <Badge color="orange" variant="light">
                    <FormattedMessage id="scanner.search.in" defaultMessage="Checked in" />
                  </Badge>
                ) : (
                  <Button
                    size="xs"
                    onClick={() => onCheckIn(row)}
                    aria-label={intl.formatMessage(
                      { id: 'scanner.search.checkIn', defaultMessage: 'Check in {name}' },
                      { name: row.holderName },
                    )}
                  >
                    <FormattedMessage id="scanner.checkIn" defaultMessage="Check in" />
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function RecentScans({
  rows,
}: {
  rows: { id: string; result: string; device: string; scannedAt: string; undone: boolean; holderName: string | null }[];
}) {
  const intl = useIntl();
  if (rows.length === 0) return null;
  return (
    <Card withBorder padding="md">
      <Stack gap="xs">
        <Title order={2} size="h5">
          <FormattedMessage id="scanner.recent" defaultMessage="Latest scans at all doors" />
        </Title>
        <Table aria-label={intl.formatMessage({ id: 'scanner.recent', defaultMessage: 'Latest scans at all doors' })}>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
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
                <Table.Td ta="right">
                  <RecentResult result={row.result} undone={row.undone} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

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
        <Badge color="green">
          <FormattedMessage id="scanner.result.accepted" defaultMessage="Admitted" />
        </Badge>
      );
    case 'duplicate':
      return (
        <Badge color="orange">
          <FormattedMessage id="scanner.result.duplicate" defaultMessage="Already checked in" />
        </Badge>
      );
    case 'void':
      return (
        <Badge color="red">
          <FormattedMessage id="scanner.result.void" defaultMessage="Void" />
        </Badge>
      );
    default:
      return (
        <Badge color="red">
          <FormattedMessage id="scanner.result.unknown" defaultMessage="Unknown" />
        </Badge>
      );
  }
}
