import { Button, Group, Loader, Stack, TextInput } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { hasTicketCodeShape } from '@admit/shared/ticket-code';
import type { AttendeeIndex } from './attendee-index';
import { sendUndo } from './offline-scans';
import { updateScan, useScanLog, verdictOf, type ScanEntry } from './scan-log';
import { ScanVerdict, verdictSentence } from './scan-verdict';
import classes from './scan-verdict.module.css';

const CameraScanner = lazy(() => import('./camera-scanner').then((module) => ({ default: module.CameraScanner })));

/**
 * The field, the camera and the verdict of the latest scan. The field is the browser's own
 * (uncontrolled): neither a scanner's keys nor the Enter re-render it.
 */
export const ScanDesk = memo(function ScanDesk({
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

      <LatestVerdict eventId={eventId} device={device} onUndone={focusField} />
    </>
  );
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
  const canUndo = latest && !latest.undone && ['accepted', 'provisional'].includes(verdictOf(latest).result);
  return (
    <>
      <VerdictAnnouncer latest={latest} />
      {latest && (
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
