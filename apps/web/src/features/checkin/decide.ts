import type { AttendeeRow } from '@admit/shared/checkin';
import { isSignedTicketCode } from '@admit/shared/ticket-code';
import type { LocalVerdict, ScanEntry } from './scan-log';

/**
 * The door's verdict on a code, on the device and at once (no network needed): from the attendee
 * list saved on the device, this device's own admissions not yet in that list, and, for a code the
 * list does not know, the event's signature (a genuine ticket bought after the last sync is let in
 * provisionally; the server has the last word when the scan syncs).
 */
export async function decide(input: {
  code: string;
  attendeesByCode: ReadonlyMap<string, AttendeeRow>;
  ownScans: ScanEntry[];
  checkinKey: string | undefined;
}): Promise<LocalVerdict> {
  const { code, attendeesByCode, ownScans, checkinKey } = input;
  const attendee = attendeesByCode.get(code);
  const mine = ownScans.find(
    (entry) =>
      entry.code === code && !entry.undone && ['accepted', 'provisional'].includes(entry.server?.result ?? entry.local.result),
  );
  if (attendee) {
    // A list saved before answers were shown at the door has none.
    const named = {
      holderName: attendee.holderName,
      ticketTypeName: attendee.ticketTypeName,
      doorAnswers: attendee.doorAnswers as AttendeeRow['doorAnswers'] | undefined,
    };
    if (attendee.status === 'void') return { result: 'void', ...named };
    if (attendee.checkedInAt)
      return { result: 'duplicate', ...named, first: { at: attendee.checkedInAt, device: attendee.checkedInDevice ?? '' } };
    if (mine) return { result: 'duplicate', ...named, first: { at: mine.scannedAt, device: mine.device } };
    return { result: 'accepted', ...named };
  }
  if (mine) return { result: 'duplicate', first: { at: mine.scannedAt, device: mine.device } };
  if (checkinKey && (await isSignedTicketCode(checkinKey, code))) return { result: 'provisional' };
  return { result: 'unknown' };
}
