import type { ScanInput } from '@admit/shared/checkin';

/** A ticket of the event as the door sees it: its id (for the checks) and the code on the QR. */
export interface DoorTicket {
  id: string;
  code: string;
}

/** One scan made offline, in the device's queue, and whether it is a planted second scan of a ticket. */
export interface QueuedScan {
  input: ScanInput;
  ticketId: string;
  planted: boolean;
}

export interface Device {
  name: string;
  queue: QueuedScan[];
}

/** A small seeded generator (mulberry32), so that every run plants the same queues. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * The devices' offline queues: every ticket is scanned once by one device ("its" door), and
 * `planted` of them a second time by another device, mixed in at random places, so that each
 * device ends with `perDevice` scans. Each scan has its own idempotency key and the time it was
 * made, spread over the `offlineMinutes` before `syncAt` in queue order (a device's clock only
 * moves forward). Which of the two scans of a planted ticket reaches the server first depends on
 * the sync, as it would at a venue: either way exactly one must be admitted.
 */
export function planQueues(options: {
  eventId: string;
  tickets: DoorTicket[];
  devices: number;
  perDevice: number;
  planted: number;
  syncAt: Date;
  offlineMinutes: number;
  seed: number;
}): Device[] {
  const { devices, perDevice, planted } = options;
  if (options.tickets.length !== devices * perDevice - planted)
    throw new Error(
      `need ${devices * perDevice - planted} tickets for ${devices} × ${perDevice} scans, got ${options.tickets.length}`,
    );
  if (planted % devices !== 0) throw new Error('planted duplicates must split evenly over the devices');
  const random = seeded(options.seed);
  const tickets = shuffle(options.tickets, random);
  const own = (perDevice * devices - planted) / devices;
  const owned = Array.from({ length: devices }, (_, device) => tickets.slice(device * own, (device + 1) * own));

  // Device d scans again `planted / devices` tickets owned by the others, taken in turn from each.
  const seconds: DoorTicket[][] = Array.from({ length: devices }, () => []);
  const taken = new Array<number>(devices).fill(0);
  for (let device = 0; device < devices; device++) {
    for (let index = 0; index < planted / devices; index++) {
      const from = (device + 1 + (index % (devices - 1))) % devices;
      seconds[device]!.push(owned[from]![taken[from]!++]!);
    }
  }

  const spanMs = options.offlineMinutes * 60_000;
  return owned.map((mine, device) => {
    const name = `Door ${device + 1}`;
    const mixed = shuffle(
      [...mine.map((ticket) => ({ ticket, planted: false })), ...seconds[device]!.map((ticket) => ({ ticket, planted: true }))],
      random,
    );
    const queue = mixed.map(({ ticket, planted: isPlanted }, position) => ({
      ticketId: ticket.id,
      planted: isPlanted,
      input: {
        eventId: options.eventId,
        code: ticket.code,
        device: name,
        scannedAt: new Date(
          options.syncAt.getTime() - spanMs + Math.round(((position + 1) * spanMs) / (mixed.length + 1)),
        ).toISOString(),
        idempotencyKey: `bench-${options.seed}-d${device + 1}-${String(position).padStart(4, '0')}-${ticket.id.slice(0, 8)}`,
      },
    }));
    return { name, queue };
  });
}
