import { randomUUID } from 'node:crypto';
import { scanTicket, scanTicketBatch, undoCheckIn } from '@admit/shared/checkin';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { isSignedTicketCode } from '@admit/shared/ticket-code';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';
import { checkIn } from './schema';

let t: TestApp;
let url: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let staff: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Organizer');
  staff = await t.signUp('Sam Staff');
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

/** A published event with free tickets taken by a buyer; Sam is its staff. */
async function eventWithTickets(count = 2) {
  const created = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ name: 'Standing', capacity: 50 }] });
  await addMember(t, created.organizationId, staff.user.id, 'staff');
  const buyer = await t.signUp('Bea Buyer');
  const placed = await t.call(
    createOrder,
    { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity: count }] },
    buyer.cookie,
  );
  expect(placed.status).toBe(200);
  const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));
  return { ...created, buyer, orderId: placed.body.result.orderId, codes: tickets.map((one) => one.code) };
}

async function scan(
  eventId: string,
  code: string,
  device = 'Door 1',
  options: { key?: string; at?: Date; cookie?: string } = {},
) {
  return t.call(
    scanTicket,
    {
      eventId,
      code,
      device,
      scannedAt: (options.at ?? new Date()).toISOString(),
      idempotencyKey: options.key ?? randomUUID(),
    },
    options.cookie ?? staff.cookie,
  );
}

describe('scanning tickets at the door', () => {
  it('names the other event of the same organization a scanned ticket is for, and never another organization’s', async () => {
    const first = await eventWithTickets(1);
    const sameOrg = await createPublishedEvent(t, owner.cookie, { organizationId: first.organizationId });
    const otherOrg = await eventWithTickets(1);

    const here = await scan(sameOrg.eventId, first.codes[0]!);
    const elsewhere = await scan(otherOrg.eventId, first.codes[0]!);

    expect(here.body.result).toMatchObject({
      result: 'unknown',
      ticket: null,
      otherEvent: { title: 'Jazz night', startsAt: '2030-01-10T18:00:00.000Z', timeZone: 'Europe/Berlin' },
    });
    expect(elsewhere.body.result).toMatchObject({ result: 'unknown', otherEvent: null });
  });

  it('admits a valid ticket with its holder and type, and shows a second scan at another door as already checked in', async () => {
    const { eventId, codes } = await eventWithTickets();

    const first = await scan(eventId, codes[0]!, 'Door 1');
    const second = await scan(eventId, codes[0]!, 'Door 2');

    expect(first.body.result).toMatchObject({
      result: 'accepted',
      ticket: { holderName: 'Bea Buyer', ticketTypeName: 'Standing' },
      firstCheckIn: null,
    });
    expect(second.body.result).toMatchObject({ result: 'duplicate', firstCheckIn: { device: 'Door 1' } });
    const log = await t.db.select().from(checkIn).where(eq(checkIn.eventId, eventId));
    expect(log.map((row) => [row.result, row.device]).sort()).toEqual([
      ['accepted', 'Door 1'],
      ['duplicate', 'Door 2'],
    ]);
  });

  it('gives signed codes that the scanner can check with its event’s key', async () => {
    const { eventId, codes } = await eventWithTickets(1);
    const [found] = await t.db.select({ key: event.checkinKey }).from(event).where(eq(event.id, eventId));

    expect(found!.key).toMatch(/^[0-9a-f]{64}$/);
    await expect(isSignedTicketCode(found!.key, codes[0]!)).resolves.toBe(true);
  });

  it('answers unknown for a code of no ticket of this event, and void for a refunded ticket', async () => {
    const { eventId, codes, orderId } = await eventWithTickets(1);
    const other = await eventWithTickets(1);
    const refunded = await t.call(
      refundOrder,
      { orderId, reason: 'Cannot come', idempotencyKey: `refund-${orderId}` },
      owner.cookie,
    );
    expect(refunded.status).toBe(200);

    expect((await scan(eventId, 'made-up-code')).body.result).toMatchObject({ result: 'unknown', ticket: null });
    expect((await scan(eventId, other.codes[0]!)).body.result).toMatchObject({ result: 'unknown' });
    expect((await scan(eventId, codes[0]!)).body.result).toMatchObject({ result: 'void' });
  });

  it('applies a scan sent twice with its key once, with the same answer', async () => {
    const { eventId, codes } = await eventWithTickets(1);
    const key = randomUUID();

    const first = await scan(eventId, codes[0]!, 'Door 1', { key });
    const again = await scan(eventId, codes[0]!, 'Door 1', { key });

    expect(again.body.result).toEqual(first.body.result);
    expect(await t.db.select().from(checkIn).where(eq(checkIn.idempotencyKey, key))).toHaveLength(1);
  });

  it('admits a ticket once when ten doors scan it at the same moment', async () => {
    const { eventId, codes } = await eventWithTickets(1);

    const answers = await Promise.all(Array.from({ length: 10 }, (_, door) => scan(eventId, codes[0]!, `Door ${door + 1}`)));

    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.body.result.result === 'accepted')).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.result.result === 'duplicate')).toHaveLength(9);
  });

  it('keeps the time an offline scan was made, and never a time in the future', async () => {
    const { eventId, codes } = await eventWithTickets(2);
    const earlier = new Date(Date.now() - 20 * 60_000);

    await scan(eventId, codes[0]!, 'Door 1', { at: earlier });
    await scan(eventId, codes[1]!, 'Door 1', { at: new Date(Date.now() + 3_600_000) });

    const [first] = await t.db.select().from(ticket).where(eq(ticket.code, codes[0]!));
    const [second] = await t.db.select().from(ticket).where(eq(ticket.code, codes[1]!));
    expect(first!.checkedInAt!.getTime()).toBe(earlier.getTime());
    expect(second!.checkedInAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('takes an admission back within a minute, after which the ticket can be admitted again', async () => {
    const { eventId, codes } = await eventWithTickets(1);
    const key = randomUUID();
    await scan(eventId, codes[0]!, 'Door 1', { key });

    const undo = await t.call(undoCheckIn, { eventId, scanKey: key, device: 'Door 1' }, staff.cookie);
    const again = await scan(eventId, codes[0]!, 'Door 2');

    expect(undo.body).toEqual({ result: { undone: true, reason: 'undone' } });
    expect(again.body.result.result).toBe('accepted');
  });

  it('refuses to take an admission back after a minute, and a scan that did not admit', async () => {
    const { eventId, codes } = await eventWithTickets(1);
    const late = randomUUID();
    const duplicate = randomUUID();
    await scan(eventId, codes[0]!, 'Door 1', { key: late });
    await scan(eventId, codes[0]!, 'Door 2', { key: duplicate });
    await t.db
      .update(checkIn)
      .set({ createdAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(checkIn.idempotencyKey, late));

    const tooLate = await t.call(undoCheckIn, { eventId, scanKey: late, device: 'Door 1' }, staff.cookie);
    const notAdmitted = await t.call(undoCheckIn, { eventId, scanKey: duplicate, device: 'Door 2' }, staff.cookie);

    expect(tooLate.body).toEqual({ result: { undone: false, reason: 'too-late' } });
    expect(notAdmitted.body).toEqual({ result: { undone: false, reason: 'not-admitted' } });
    const [still] = await t.db.select().from(ticket).where(eq(ticket.code, codes[0]!));
    expect(still!.checkedInDevice).toBe('Door 1');
  });

  it('applies a device’s queue in one call, in order, and the same queue again changes nothing', async () => {
    const { eventId, codes } = await eventWithTickets(2);
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const queue = [
      { eventId, code: codes[0]!, device: 'Door 5', scannedAt: at(3), idempotencyKey: randomUUID() },
      { eventId, code: codes[0]!, device: 'Door 5', scannedAt: at(2), idempotencyKey: randomUUID() },
      { eventId, code: 'no-such-code', device: 'Door 5', scannedAt: at(2), idempotencyKey: randomUUID() },
      { eventId, code: codes[1]!, device: 'Door 5', scannedAt: at(1), idempotencyKey: randomUUID() },
    ];

    const first = await t.call(scanTicketBatch, { scans: queue }, staff.cookie);
    const again = await t.call(scanTicketBatch, { scans: queue }, staff.cookie);

    expect(first.body.result.answers.map((answer) => answer.result)).toEqual(['accepted', 'duplicate', 'unknown', 'accepted']);
    expect(first.body.result.answers[1]!.firstCheckIn).toEqual({ at: queue[0]!.scannedAt, device: 'Door 5' });
    expect(again.body.result).toEqual(first.body.result);
    expect(await t.db.select().from(checkIn).where(eq(checkIn.eventId, eventId))).toHaveLength(4);
  });

  it('refuses a queue for an event where the person is not at the door, and writes none of it', async () => {
    const { eventId, codes } = await eventWithTickets(1);
    const stranger = await t.signUp('Stan Stranger');
    const answer = await t.call(
      scanTicketBatch,
      {
        scans: [
          { eventId, code: codes[0]!, device: 'Door 9', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
        ],
      },
      stranger.cookie,
    );

    expect(answer.status).toBe(404);
    expect(await t.db.select().from(checkIn).where(eq(checkIn.eventId, eventId))).toEqual([]);
  });

  it('refuses bad input with the fields that failed', async () => {
    const { eventId } = await eventWithTickets(1);
    const response = await t.call(
      scanTicket,
      { eventId, code: '', device: ' ', scannedAt: 'yesterday', idempotencyKey: 'x' },
      staff.cookie,
    );

    const nul = await scan(eventId, 'abc\u0000def');
    expect(nul.status).toBe(400);
    expect(nul.body.error.details.fields).toEqual([expect.objectContaining({ path: 'code' })]);
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields.map((field: { path: string }) => field.path).sort()).toEqual([
      'code',
      'device',
      'idempotencyKey',
      'scannedAt',
    ]);
  });

  it('updates the counts per ticket type, the attendee list and the recent scans on every door as tickets are scanned', async () => {
    const { eventId, codes, ticketTypeIds } = await eventWithTickets(2);
    const counts = await watch(url, 'checkin.counts', { eventId }, staff.cookie);
    const list = await watch(url, 'checkin.attendees', { eventId }, owner.cookie);
    const recent = await watch(url, 'checkin.recent', { eventId }, staff.cookie);
    try {
      expect(counts.rows()).toEqual([{ id: ticketTypeIds[0], name: 'Standing', checkedIn: 0, total: 2 }]);
      expect(list.rows().map((row) => row.checkedInAt)).toEqual([null, null]);
      // The owner reads emails; door staff read names only (the roles in docs/product.md).
      expect(list.rows().map((row) => row.holderEmail)).toEqual([expect.stringContaining('@'), expect.stringContaining('@')]);
      const staffList = await watch(url, 'checkin.attendees', { eventId }, staff.cookie);
      expect(staffList.rows().map((row) => [row.holderName, row.holderEmail])).toEqual([
        ['Bea Buyer', null],
        ['Bea Buyer', null],
      ]);
      staffList.close();

      await scan(eventId, codes[0]!, 'Door 3');

      await expect.poll(() => counts.rows()[0]?.checkedIn).toBe(1);
      await expect.poll(() => list.rows().find((row) => row.code === codes[0])?.checkedInDevice).toBe('Door 3');
      await scan(eventId, codes[0]!, 'Door 4');
      await expect
        .poll(() => recent.rows().map((row) => [row.result, row.device, row.holderName]))
        .toEqual([
          ['duplicate', 'Door 4', 'Bea Buyer'],
          ['accepted', 'Door 3', 'Bea Buyer'],
        ]);
    } finally {
      counts.close();
      list.close();
      recent.close();
    }
  });
});
