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
import { useMutationState, useQueryClient } from '@tanstack/react-query';
import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { hasTicketCodeShape } from '@admit/shared/ticket-code';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { AttendeeIndex } from './attendee-index';
import { decide } from './decide';
import { DeviceNameForm, useDeviceName } from './device-name';
import { prepareSignal, signal } from './feedback';
import { sendScan, sendUndo } from './offline-scans';
import { addScan, scansOf, updateScan, useScanLog, verdictOf, type ScanEntry } from './scan-log';
import { ScanVerdict } from './scan-verdict';

const CameraScanner = lazy(() => import('./camera-scanner').then((module) => ({ default: module.CameraScanner })));

/**
 * Runs `work` once the frame being drawn is on screen, or after 100 ms if no frame comes (a hidden
 * page draws none).
 */
function afterPaint(work: () => void) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    work();
  };
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 100);
}

/** How long someone pauses after typing a whole code before the people found for it show. */
const codePauseMs = 300;

/** How many people a search shows at once (the list may hold 10,000). */
const searchLimit = 20;

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
  const [device, setDevice] = useDeviceName();
  const kit = useLiveQuery(scannerKit, { eventId });
  const list = useLiveQuery(attendeesQuery, { eventId });

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

/**
 * What a scan needs: the attendee index (kept current with the live list), the scan itself, and
 * the search. It re-renders on each live change, but the parts under it only when what they show
 * changed: the field and the verdict not at all, the people found only while someone searches.
 */
function Door({
  eventId,
  device,
  attendees,
  checkinKey,
}: {
  eventId: string;
  device: string;
  attendees: AttendeeRow[];
  checkinKey: string | undefined;
}) {
  const queryClient = useQueryClient();
  const field = useRef<HTMLInputElement>(null);
  const index = useMemo(() => new AttendeeIndex(), []);
  index.update(attendees);

  // The search follows the field in a transition. A whole code, as a scanner types it, is followed
  // by Enter within milliseconds: the people found for it are only shown if no Enter came (someone
  // typing a code by hand, then pausing).
  const [query, setQuery] = useState('');
  const searchLater = useRef<ReturnType<typeof setTimeout>>(undefined);
  const search = useCallback((value: string) => {
    clearTimeout(searchLater.current);
    const show = (text: string) => startTransition(() => setQuery(text.trim()));
    if (hasTicketCodeShape(value.trim())) {
      show('');
      searchLater.current = setTimeout(() => show(value), codePauseMs);
    } else {
      show(value);
    }
  }, []);
  useEffect(() => () => clearTimeout(searchLater.current), []);

  // After the first paint, so that the first scan does not wait for the sound system.
  useEffect(() => {
    const timer = setTimeout(prepareSignal, 0);
    return () => clearTimeout(timer);
  }, []);

  const checkIn = useCallback(
    async (code: string) => {
      const entry: ScanEntry = {
        key: crypto.randomUUID(),
        eventId,
        code,
        device,
        scannedAt: new Date().toISOString(),
        local: await decide({
          code,
          attendeesByCode: index.codes,
          ownScans: scansOf(eventId),
          checkinKey,
        }),
      };
      const input = { eventId, code, device, scannedAt: entry.scannedAt, idempotencyKey: entry.key };
      // Something no ticket code can be (control characters, 200+ characters): unknown at once,
      // and never queued, where it would fail the whole batch it travels in.
      if (!ScanInput.safeParse(input).success) {
        const unknown = { ...entry, local: { result: 'unknown' as const } };
        addScan({ ...unknown, server: { checkInId: entry.key, result: 'unknown', ticket: null, firstCheckIn: null } });
        afterPaint(() => signal(unknown.local));
        return;
      }
      // The verdict first (the scan log is written now, so the scan is kept even if the page goes
      // away before it is sent); the sound and the request right after it is on screen.
      addScan(entry);
      afterPaint(() => {
        signal(entry.local);
        sendScan(queryClient, input);
      });
    },
    [device, eventId, queryClient, index, checkinKey],
  );
  /** What is in the field, trimmed; the field is empty afterwards. */
  const takeField = useCallback(() => {
    const input = field.current;
    const value = input?.value.trim() ?? '';
    if (input) input.value = '';
    return value;
  }, []);
  const checkInFound = useCallback(
    (row: AttendeeRow) => {
      takeField();
      search('');
      void checkIn(row.code);
      field.current?.focus();
    },
    [checkIn, search, takeField],
  );

  return (
    <>
      <ScanDesk
        eventId={eventId}
        device={device}
        field={field}
        takeField={takeField}
        index={index}
        search={search}
        checkIn={checkIn}
      />
      <PeopleFound index={index} attendees={attendees} query={query} onCheckIn={checkInFound} />
    </>
  );
}

/**
 * The field, the camera and the verdict of the latest scan. The field is the browser's own
 * (uncontrolled): neither a scanner's keys nor the Enter re-render it.
 */
const ScanDesk = memo(function ScanDesk({
  eventId,
  device,
  field,
  takeField,
  index,
  search,
  checkIn,
}: {
  eventId: string;
  device: string;
  field: React.RefObject<HTMLInputElement | null>;
  takeField: () => string;
  index: AttendeeIndex;
  search: (text: string) => void;
  checkIn: (code: string) => Promise<void>;
}) {
  const intl = useIntl();
  const [camera, setCamera] = useState(false);
  const focusField = useCallback(() => field.current?.focus(), [field]);
  const onCameraCode = useCallback((code: string) => void checkIn(code), [checkIn]);
  const closeCamera = useCallback(() => setCamera(false), []);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = takeField();
    if (!value) return;
    // A code (typed, or from a scanner that types): scan it, in the case of the ticket's code if
    // only the case differs (Caps Lock). A name with one match: that person.
    const found = index.get(value)
      ? []
      : hasTicketCodeShape(value)
        ? [index.getIgnoringCase(value)].filter((row) => row !== undefined)
        : value.length < 2
          ? []
          : index.search(value, 2);
    const code = found.length === 1 ? found[0]!.code : value;
    search('');
    void checkIn(code);
  };

  return (
    <>
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
            defaultValue=""
            onChange={(event) => search(event.currentTarget.value)}
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
          <CameraScanner onCode={onCameraCode} onClose={closeCamera} />
        </Suspense>
      )}

      <LatestVerdict eventId={eventId} device={device} onUndone={focusField} />
    </>
  );
});

/** The people a search found, live (a ticket checked in elsewhere shows it). */
const PeopleFound = memo(function PeopleFound({
  index,
  attendees,
  query,
  onCheckIn,
}: {
  index: AttendeeIndex;
  attendees: AttendeeRow[];
  query: string;
  onCheckIn: (row: AttendeeRow) => void;
}) {
  const matches = useMemo(
    () => (query.length < 2 ? [] : index.search(query, searchLimit)),
    // attendees: the index has changed with them
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [index, attendees, query],
  );
  if (matches.length === 0) return null;
  return <SearchResults rows={matches} onCheckIn={onCheckIn} />;
});

/** The verdict of this device's latest scan, with Undo while it may be taken back. */
const LatestVerdict = memo(function LatestVerdict({
  eventId,
  device,
  onUndone,
}: {
  eventId: string;
  device: string;
  onUndone: () => void;
}) {
  const queryClient = useQueryClient();
  const latest = useScanLog(eventId)[0];
  if (!latest) return null;
  const canUndo = !latest.undone && ['accepted', 'provisional'].includes(verdictOf(latest).result);
  return (
    <ScanVerdict
      key={latest.key}
      entry={latest}
      onUndo={
        canUndo
          ? () => {
              updateScan(eventId, latest.key, { undone: true });
              sendUndo(queryClient, { eventId, scanKey: latest.key, device });
              onUndone();
            }
          : undefined
      }
    />
  );
});

const LiveCounts = memo(function LiveCounts({ eventId }: { eventId: string }) {
  const { rows } = useLiveQuery(checkInCounts, { eventId });
  return <Counts rows={rows ?? []} />;
});

const LiveRecentScans = memo(function LiveRecentScans({ eventId }: { eventId: string }) {
  const { rows } = useLiveQuery(recentScans, { eventId });
  return <RecentScans rows={rows ?? []} />;
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

function SearchResults({ rows, onCheckIn }: { rows: AttendeeRow[]; onCheckIn: (row: AttendeeRow) => void }) {
  const intl = useIntl();
  return (
    <Card withBorder padding="sm">
      <Table aria-label={intl.formatMessage({ id: 'scanner.search.table', defaultMessage: 'People found' })}>
        <Table.Tbody>
          {rows.map((row) => (
            <SearchResult key={row.id} row={row} onCheckIn={onCheckIn} />
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** One person found (as someone types, most of them were found by the previous letter too: not rendered again). */
const SearchResult = memo(function SearchResult({ row, onCheckIn }: { row: AttendeeRow; onCheckIn: (row: AttendeeRow) => void }) {
  const intl = useIntl();
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600}>{row.holderName}</Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
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
      <ResultCell>
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
      </ResultCell>
    </Table.Tr>
  );
});

/**
 * The right-hand cell of the scanner's tables (a result badge, a button): at least as wide as what
 * it holds, so that on a phone the name beside it wraps and the badge is never cut short.
 */
function ResultCell({ children }: { children: React.ReactNode }) {
  return (
    <Table.Td ta="right">
      <div style={{ minWidth: 'max-content' }}>{children}</div>
    </Table.Td>
  );
}

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
