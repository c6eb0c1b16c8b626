import { z } from 'zod';
import { defineCallableContract } from './callable';
import { defineLiveQueryContract } from './live';
import { ShownAnswer } from './questions';
import { TicketStatus } from './tickets';

const Id = z.string().min(1).max(64);

/** No control characters: nothing a scanner, a person or a QR code should send (and PostgreSQL refuses NUL). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const printable = /^[^\u0000-\u001f\u007f]*$/;

/** What a scanner calls itself ("Door 2"): shown to the other doors when a ticket comes twice. */
export const DeviceName = z
  .string()
  .trim()
  .min(1, 'Name this scanner, e.g. Door 2')
  .max(60)
  .regex(printable, 'No control characters');

/**
 * accepted: let in (the first scan of a valid ticket); duplicate: this ticket was let in before;
 * void: refunded or cancelled; unknown: no ticket of this event has this code.
 */
export const ScanResult = z.enum(['accepted', 'duplicate', 'void', 'unknown']);
export type ScanResult = z.infer<typeof ScanResult>;

/**
 * One scan at the door. Offline-capable: made on the device with its own idempotency key and time,
 * queued while there is no network, and replayed in order; the server applies each key once.
 */
export const ScanInput = z.strictObject({
  eventId: Id,
  code: z.string().trim().min(1).max(200).regex(printable, 'No control characters'),
  device: DeviceName,
  /** When the person was scanned, by the device's clock (a replayed scan keeps its time). */
  scannedAt: z.iso.datetime({ offset: true }),
  idempotencyKey: z.string().min(8).max(100),
});
export type ScanInput = z.input<typeof ScanInput>;

export const ScanOutput = z.object({
  checkInId: z.string(),
  result: ScanResult,
  ticket: z
    .object({
      id: z.string(),
      holderName: z.string(),
      ticketTypeName: z.string(),
      /** The answers the organizer shows at the door ("Wheelchair: Yes"). */
      doorAnswers: z.array(ShownAnswer).optional(),
    })
    .nullable(),
  /** For a duplicate: when and where the ticket was let in. */
  firstCheckIn: z.object({ at: z.string(), device: z.string() }).nullable(),
  /** For an unknown code that is a ticket of another event of the same organization: which one. */
  otherEvent: z.object({ title: z.string(), startsAt: z.string(), timeZone: z.string() }).nullish(),
});
export type ScanOutput = z.infer<typeof ScanOutput>;
export const scanTicket = defineCallableContract('checkin.scan', ScanInput, ScanOutput);

/**
 * A device's queued scans in one call, on reconnect: applied one after another in the given order,
 * each as `checkin.scan` would apply it (own key, own transaction); the answers in the same order.
 */
export const scanTicketBatch = defineCallableContract(
  'checkin.scanBatch',
  z.strictObject({ scans: z.array(ScanInput).min(1).max(500) }),
  z.object({ answers: z.array(ScanOutput) }),
);

/** Takes back an admission made by mistake, within a minute of the scan; named by the scan's key. */
export const undoWindowMs = 60_000;
export const undoCheckIn = defineCallableContract(
  'checkin.undo',
  z.strictObject({ eventId: Id, scanKey: z.string().min(8).max(100), device: DeviceName }),
  z.object({ undone: z.boolean(), reason: z.enum(['undone', 'too-late', 'not-admitted']).optional() }),
);

/** Everything a scanner needs about its event, kept on the device: the key that signs its ticket codes. */
export const ScannerKitRow = z.object({
  id: z.string(),
  title: z.string(),
  timeZone: z.string(),
  startsAt: z.string(),
  checkinKey: z.string(),
});
export const scannerKit = defineLiveQueryContract('checkin.kit', z.strictObject({ eventId: Id }), ScannerKitRow);

/** One ticket of the event, as the door sees it (the list a scanner downloads for offline use). */
export const AttendeeRow = z.object({
  id: z.string(),
  code: z.string(),
  holderName: z.string(),
  /** Admins and owners only: door staff read attendee names, never their email. */
  holderEmail: z.string().nullable(),
  ticketTypeName: z.string(),
  status: TicketStatus,
  checkedInAt: z.string().nullable(),
  checkedInDevice: z.string().nullable(),
  /** The answers the organizer shows at the door ("Wheelchair: Yes"), also offline. */
  doorAnswers: z.array(ShownAnswer),
});
export type AttendeeRow = z.infer<typeof AttendeeRow>;
export const attendees = defineLiveQueryContract('checkin.attendees', z.strictObject({ eventId: Id }), AttendeeRow);

/** Checked in of valid tickets, per ticket type (`id` is the ticket type's). */
export const CheckInCountRow = z.object({ id: z.string(), name: z.string(), checkedIn: z.number(), total: z.number() });
export type CheckInCountRow = z.infer<typeof CheckInCountRow>;
export const checkInCounts = defineLiveQueryContract('checkin.counts', z.strictObject({ eventId: Id }), CheckInCountRow);

/** The latest scans at every door of the event, newest first: a duplicate shows on all devices. */
export const RecentScanRow = z.object({
  id: z.string(),
  result: ScanResult,
  device: z.string(),
  scannedAt: z.string(),
  undone: z.boolean(),
  holderName: z.string().nullable(),
  ticketTypeName: z.string().nullable(),
});
export type RecentScanRow = z.infer<typeof RecentScanRow>;
export const recentScans = defineLiveQueryContract('checkin.recent', z.strictObject({ eventId: Id }), RecentScanRow);
