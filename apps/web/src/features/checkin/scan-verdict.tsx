import { undoWindowMs } from '@admit/shared/checkin';
import { IconAlertTriangle, IconArrowBackUp, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { answerWords } from '../../lib/answers';
import { verdictOf, type ScanEntry } from './scan-log';
import classes from './scan-verdict.module.css';

const looks = {
  accepted: { color: 'green', Icon: IconCircleCheck },
  provisional: { color: 'teal', Icon: IconCircleCheck },
  duplicate: { color: 'orange', Icon: IconAlertTriangle },
  void: { color: 'red', Icon: IconCircleX },
  unknown: { color: 'red', Icon: IconCircleX },
  // Taken back: nobody was let in, so it must not look like an admission.
  undone: { color: 'gray', Icon: IconArrowBackUp },
} as const;

const headlines = defineMessages({
  undone: { id: 'scanner.verdict.undone', defaultMessage: 'Admission undone' },
  accepted: { id: 'scanner.verdict.accepted', defaultMessage: 'Admitted' },
  provisional: { id: 'scanner.verdict.provisional', defaultMessage: 'Admitted provisionally' },
  duplicate: { id: 'scanner.verdict.duplicate', defaultMessage: 'Already checked in' },
  void: { id: 'scanner.verdict.void', defaultMessage: 'Void — refunded or cancelled' },
  wrongEvent: { id: 'scanner.verdict.wrongEvent', defaultMessage: 'Ticket of another event' },
  unknown: { id: 'scanner.verdict.unknown', defaultMessage: 'Unknown ticket' },
});

/** The verdict's headline: what happened to the scan, in a few words. */
function headlineOf(entry: ScanEntry) {
  const verdict = verdictOf(entry);
  if (entry.undone) return headlines.undone;
  if (verdict.result === 'unknown') return verdict.otherEvent ? headlines.wrongEvent : headlines.unknown;
  return headlines[verdict.result];
}

const timeOf = (intl: IntlShape, at: string) => intl.formatTime(at, { hour: 'numeric', minute: '2-digit' });

/**
 * What a screen reader says of a scan, once: the headline, the holder, the ticket type and, for a
 * ticket already checked in, when and where. The scanner's one live region says it (scan-desk.tsx).
 */
export function verdictSentence(intl: IntlShape, entry: ScanEntry): string {
  const verdict = verdictOf(entry);
  const first =
    !entry.undone && verdict.result === 'duplicate' && verdict.first
      ? intl.formatMessage(
          { id: 'scanner.verdict.first', defaultMessage: 'at {time} at {device}' },
          { time: timeOf(intl, verdict.first.at), device: verdict.first.device },
        )
      : null;
  const answers = entry.undone
    ? []
    : (verdict.doorAnswers ?? []).map((answer) => `${answer.label}: ${answerWords(intl, answer)}`);
  return [intl.formatMessage(headlineOf(entry)), verdict.holderName, verdict.ticketTypeName, ...answers, first]
    .filter(Boolean)
    .join('. ');
}

/** Mantine's shades of a colour, as the variables the verdict's CSS reads. */
const shades = (color: string) =>
  Object.fromEntries([1, 3, 4, 6, 7, 9].map((shade) => [`--verdict-${shade}`, `var(--mantine-color-${color}-${shade})`]));

/**
 * The verdict of the latest scan, big enough to read at arm's length, in colour and in words. Plain
 * elements (scan-verdict.module.css), not Mantine components: it is drawn on every scan. Screen
 * readers hear it from the scanner's live region, once (verdictSentence), not from this box.
 */
export function ScanVerdict({ entry, onUndo }: { entry: ScanEntry; onUndo?: () => void }) {
  const intl = useIntl();
  const verdict = verdictOf(entry);
  const { color, Icon } = looks[entry.undone ? 'undone' : verdict.result];
  // The undo button goes when its minute is up (the parent keys this by scan, so it starts afresh).
  const [undoOpen, setUndoOpen] = useState(true);
  useEffect(() => {
    const left = undoWindowMs - (Date.now() - new Date(entry.scannedAt).getTime());
    const timer = setTimeout(() => setUndoOpen(false), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [entry.scannedAt]);

  return (
    <div
      className={classes.verdict}
      style={shades(color)}
      data-testid="scan-verdict"
      data-result={entry.undone ? 'undone' : verdict.result}
    >
      <div className={classes.headline}>
        <Icon size={40} className={entry.undone ? `${classes.icon} mirror-in-rtl` : classes.icon} aria-hidden />
        <p className={classes.result}>
          <FormattedMessage {...headlineOf(entry)} />
        </p>
      </div>
      {verdict.holderName && <p className={classes.name}>{verdict.holderName}</p>}
      {entry.undone && (
        <p className={classes.strong}>
          <FormattedMessage id="scanner.verdict.undoneHint" defaultMessage="Not admitted: the ticket can be scanned again." />
        </p>
      )}
      {verdict.ticketTypeName && <p className={classes.line}>{verdict.ticketTypeName}</p>}
      {!entry.undone && verdict.doorAnswers && verdict.doorAnswers.length > 0 && (
        <ul className={classes.answers} data-testid="door-answers">
          {verdict.doorAnswers.map((answer) => (
            <li key={answer.questionId}>
              <FormattedMessage
                id="answers.pair"
                defaultMessage="{question}: {answer}"
                values={{ question: answer.label, answer: <strong>{answerWords(intl, answer)}</strong> }}
              />
            </li>
          ))}
        </ul>
      )}
      {verdict.result === 'duplicate' && verdict.first && (
        <p className={classes.strong}>
          <FormattedMessage
            id="scanner.verdict.first"
            defaultMessage="at {time} at {device}"
            values={{ time: timeOf(intl, verdict.first.at), device: verdict.first.device }}
          />
        </p>
      )}
      {verdict.result === 'provisional' && (
        <p className={classes.hint}>
          <FormattedMessage
            id="scanner.verdict.provisionalHint"
            defaultMessage="A genuine ticket of this event that this device has not seen yet (bought after its last update). The server checks it when the scan syncs."
          />
        </p>
      )}
      {verdict.result === 'unknown' && verdict.otherEvent && (
        <p className={classes.strong}>
          <FormattedMessage
            id="scanner.verdict.otherEvent"
            defaultMessage="This ticket is for “{title}” on {date}."
            values={{
              title: verdict.otherEvent.title,
              date: intl.formatDate(verdict.otherEvent.startsAt, { dateStyle: 'medium', timeZone: verdict.otherEvent.timeZone }),
            }}
          />
        </p>
      )}
      {verdict.result === 'unknown' && !verdict.otherEvent && (
        <p className={classes.hint}>
          <FormattedMessage id="scanner.verdict.unknownHint" defaultMessage="No ticket of this event has this code." />
        </p>
      )}
      <div className={classes.footer}>
        <span className={classes.badge} data-synced={entry.server ? 'true' : 'false'}>
          {entry.server ? (
            <FormattedMessage id="scanner.verdict.synced" defaultMessage="Synced" />
          ) : (
            <FormattedMessage id="scanner.verdict.notSynced" defaultMessage="Not synced yet" />
          )}
        </span>
        {onUndo && undoOpen && (
          <button type="button" className={classes.undo} onClick={onUndo}>
            <FormattedMessage id="scanner.verdict.undo" defaultMessage="Undo admission" />
          </button>
        )}
      </div>
    </div>
  );
}
