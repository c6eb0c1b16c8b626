import { Button, Group, Loader, Stack, TextInput } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { hasTicketCodeShape, ticketCodeRandomLength } from '@admit/shared/ticket-code';
import type { AttendeeIndex } from './attendee-index';
import { sendUndo } from './offline-scans';
import { updateScan, useScanLog, verdictOf, type ScanEntry } from './scan-log';
import { ScanVerdict, verdictSentence } from './scan-verdict';
import classes from './scan-verdict.module.css';

/**
 * The code that a text sent with Enter is, or undefined for a name or an email to search for: a
 * ticket's code, in the ticket's own case if only the case differs (Caps Lock), or a word with no
 * space or @ at least as long as a code's random part (a scanner that read some other QR code), which
 * is scanned and shown as an unknown ticket (decision 0055).
 */
function codeOf(index: AttendeeIndex, text: string): string | undefined {
  if (index.get(text)) return text;
  if (hasTicketCodeShape(text)) return index.getIgnoringCase(text)?.code ?? text;
  return text.length >= ticketCodeRandomLength && !/[\s@]/.test(text) ? text : undefined;
}

const CameraScanner = lazy(() => import('./camera-scanner').then((module) => ({ default: module.CameraScanner })));

/**
 * The field, the camera and the verdict of the latest scan. The field is the browser's own
 * (uncontrolled): neither a scanner's keys nor the Enter re-render it. Enter scans a code; on a
 * name it shows the people found, to pick from: it never lets in someone the door has not seen.
 */
export const ScanDesk = memo(function ScanDesk({
  eventId,
  device,
  field,
  takeField,
  index,
  search,
  findPeople,
  searching,
  checkIn,
}: {
  eventId: string;
  device: string;
  field: React.RefObject<HTMLInputElement | null>;
  takeField: () => string;
  index: AttendeeIndex;
  search: (text: string) => void;
  /** Shows the people found for a name at once, saying how many there are. */
  findPeople: (name: string) => void;
  /** Whether the people found for what is typed are shown. */
  searching: boolean;
  checkIn: (code: string) => Promise<void>;
}) {
  const intl = useIntl();
  const [camera, setCamera] = useState(false);
  const focusField = useCallback(() => field.current?.focus(), [field]);
  const onCameraCode = useCallback((code: string) => void checkIn(code), [checkIn]);
  const closeCamera = useCallback(() => setCamera(false), []);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = field.current?.value.trim() ?? '';
    if (!value) return;
    const code = codeOf(index, value);
    if (code === undefined) {
      findPeople(value);
      return;
    }
    takeField();
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
              // Named by its visible word (WCAG's label in name); the longer hint is its description.
              title={intl.formatMessage({ id: 'scanner.camera', defaultMessage: 'Scan with the camera' })}
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

      <LatestVerdict eventId={eventId} device={device} searching={searching} onUndone={focusField} />
    </>
  );
});

/**
 * The verdict of this device's latest scan, with Undo while it may be taken back. A new search takes
 * it away: it is about someone other than the person being looked for.
 */
const LatestVerdict = memo(function LatestVerdict({
  eventId,
  device,
  searching,
  onUndone,
}: {
  eventId: string;
  device: string;
  searching: boolean;
  onUndone: () => void;
}) {
  const queryClient = useQueryClient();
  const latest = useScanLog(eventId)[0];
  // The scan that was latest when the search began, hidden while the search lasts: a scan after it
  // (a person picked from those found, the camera) shows at once, and it shows again, with its Undo,
  // if the search is given up (the field emptied), as after a reload.
  const [cleared, setCleared] = useState<{ searching: boolean; key?: string }>({ searching });
  if (cleared.searching !== searching) setCleared({ searching, key: searching ? latest?.key : undefined });
  const shown = latest && latest.key !== cleared.key ? latest : undefined;
  const canUndo = shown && !shown.undone && ['accepted', 'provisional'].includes(verdictOf(shown).result);
  return (
    <>
      <VerdictAnnouncer latest={latest} />
      {shown && (
        <ScanVerdict
          key={shown.key}
          entry={shown}
          onUndo={
            canUndo
              ? () => {
                  updateScan(eventId, shown.key, { undone: true });
                  sendUndo(queryClient, { eventId, scanKey: shown.key, device });
                  onUndone();
                }
              : undefined
          }
        />
      )}
    </>
  );
});

/**
 * The scanner's one live region: each new verdict (and an admission undone) is said once by a
 * screen reader, as a sentence, while the field keeps the focus for the next scan. Emptied first so
 * that the same words for the next scan ("Unknown ticket" twice) are said again. A verdict already
 * on the screen when the page opens is not said.
 */
function VerdictAnnouncer({ latest }: { latest: ScanEntry | undefined }) {
  const intl = useIntl();
  const [words, setWords] = useState('');
  const said = useRef(latest ? `${latest.key}:${String(latest.undone ?? false)}` : '');
  const sentence = latest ? verdictSentence(intl, latest) : '';
  const moment = latest ? `${latest.key}:${String(latest.undone ?? false)}` : '';
  useEffect(() => {
    if (!moment || moment === said.current) return;
    said.current = moment;
    setWords('');
    const timer = setTimeout(() => setWords(sentence), 100);
    return () => clearTimeout(timer);
  }, [moment, sentence]);
  return (
    <div aria-live="assertive" aria-atomic="true" className={classes.liveRegion} data-testid="scan-announcement">
      {words}
    </div>
  );
}
