import { ScanInput, type AttendeeRow } from '@admit/shared/checkin';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { hasTicketCodeShape } from '@admit/shared/ticket-code';
import { AttendeeIndex } from './attendee-index';
import { decide } from './decide';
import { prepareSignal, signal } from './feedback';
import { sendScan } from './offline-scans';
import { PeopleFound } from './people-found';
import { ScanDesk } from './scan-desk';
import { addScan, scansOf, type ScanEntry } from './scan-log';

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

/**
 * What a scan needs: the attendee index (kept current with the live list), the scan itself, and
 * the search. It re-renders on each live change, but the parts under it only when what they show
 * changed: the field and the verdict not at all, the people found only while someone searches.
 */
export function Door({
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
  // Whether Enter was pressed on the name searched for: the people found then say how many to pick from.
  const [asked, setAsked] = useState(false);
  const searchLater = useRef<ReturnType<typeof setTimeout>>(undefined);
  const search = useCallback((value: string) => {
    clearTimeout(searchLater.current);
    const show = (text: string) =>
      startTransition(() => {
        setQuery(text.trim());
        setAsked(false);
      });
    if (hasTicketCodeShape(value.trim())) {
      show('');
      searchLater.current = setTimeout(() => show(value), codePauseMs);
    } else {
      show(value);
    }
  }, []);
  const findPeople = useCallback((name: string) => {
    clearTimeout(searchLater.current);
    setQuery(name);
    setAsked(true);
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
        findPeople={findPeople}
        searching={query !== ''}
        checkIn={checkIn}
      />
      <PeopleFound index={index} attendees={attendees} query={query} asked={asked} onCheckIn={checkInFound} />
    </>
  );
}
