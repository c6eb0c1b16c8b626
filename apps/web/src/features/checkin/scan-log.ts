import type { ScanOutput, ScanResult } from '@admit/shared/checkin';
import type { ShownAnswer } from '@admit/shared/questions';
import { useSyncExternalStore } from 'react';

/**
 * What this device scanned at one event, newest first, kept in localStorage so that it survives a
 * reload with no network: the local verdict given at once, and the server's answer once the scan
 * has synced (which wins: another door may have admitted the ticket first).
 */
export interface ScanEntry {
  key: string;
  eventId: string;
  code: string;
  device: string;
  scannedAt: string;
  local: LocalVerdict;
  server?: ScanOutput;
  undone?: boolean;
}

/** The verdict on the device, within milliseconds, from the saved attendee list and the event's key. */
export interface LocalVerdict {
  result: ScanResult | 'provisional';
  holderName?: string;
  ticketTypeName?: string;
  /** The ticket's answers the organizer shows at the door ("Wheelchair access: Yes"). */
  doorAnswers?: ShownAnswer[];
  /** For a duplicate: when and where the ticket was let in, as far as this device knows. */
  first?: { at: string; device: string };
  /** For an unknown code: the other event of this organization it is a ticket of (the server knows). */
  otherEvent?: { title: string; startsAt: string; timeZone: string };
}

const storageKey = (eventId: string) => `admit.scans.${eventId}`;
const maxEntries = 200;
const listeners = new Set<() => void>();
const cache = new Map<string, ScanEntry[]>();

export function scansOf(eventId: string): ScanEntry[] {
  if (!cache.has(eventId)) {
    let stored: ScanEntry[] = [];
    try {
      stored = JSON.parse(localStorage.getItem(storageKey(eventId)) ?? '[]') as ScanEntry[];
    } catch {
      stored = [];
    }
    cache.set(eventId, stored);
  }
  return cache.get(eventId)!;
}

function write(eventId: string, entries: ScanEntry[]) {
  // The newest answered ones, and every scan the server has not answered yet: with no network they
  // are how this device knows whom it let in, however many there are.
  const kept = entries.filter((entry, index) => index < maxEntries || !entry.server);
  cache.set(eventId, kept);
  localStorage.setItem(storageKey(eventId), JSON.stringify(kept));
  for (const listener of listeners) listener();
}

export function addScan(entry: ScanEntry) {
  write(entry.eventId, [entry, ...scansOf(entry.eventId)]);
}

export function updateScan(eventId: string, key: string, change: Partial<ScanEntry>) {
  write(
    eventId,
    scansOf(eventId).map((entry) => (entry.key === key ? { ...entry, ...change } : entry)),
  );
}

/** Every event's log on this device, oldest first (the order to send them in). */
export function allScanLogs(): ScanEntry[] {
  const eventIds = Object.keys(localStorage)
    .filter((key) => key.startsWith('admit.scans.'))
    .map((key) => key.slice('admit.scans.'.length));
  return eventIds.flatMap((eventId) => [...scansOf(eventId)].reverse());
}

/** Forgets every device's scans on sign-out (with the rest of the offline data). */
export function clearScanLogs() {
  for (const key of Object.keys(localStorage)) if (key.startsWith('admit.scans.')) localStorage.removeItem(key);
  cache.clear();
  for (const listener of listeners) listener();
}

export function useScanLog(eventId: string): ScanEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => scansOf(eventId),
  );
}

/** The verdict to show for an entry: the server's once it has answered, else the device's own. */
export function verdictOf(entry: ScanEntry): LocalVerdict {
  if (!entry.server) return entry.local;
  const { result, ticket, firstCheckIn, otherEvent } = entry.server;
  return {
    result,
    holderName: ticket?.holderName ?? entry.local.holderName,
    ticketTypeName: ticket?.ticketTypeName ?? entry.local.ticketTypeName,
    doorAnswers: ticket?.doorAnswers ?? entry.local.doorAnswers,
    first: firstCheckIn ?? undefined,
    otherEvent: otherEvent ?? undefined,
  };
}
