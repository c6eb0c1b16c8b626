import {
  moveEvent,
  removeTicketType,
  reorderTicketTypes,
  updateEvent,
  updateTicketType,
  type UpdateEventInput,
  type UpdateTicketTypeInput,
} from '@admit/shared/event-changes';
import { ticketAvailability } from '@admit/shared/events';
import { cancelOrder, createOrder } from '@admit/shared/orders';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/schema';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { orderLine } from '../orders/schema';
import { event, ticketType } from './schema';

// An organizer's changes to an event and its ticket types, each allowed and refused by role and by
// state, through the callables; every change is in the audit log.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;
let admin: Person;
let staff: Person;
let buyer: Person;
let outsider: Person;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, admin, staff, buyer, outsider] = await Promise.all([
    t.signUp('Olivia Owner'),
    t.signUp('Adam Admin'),
    t.signUp('Sam Staff'),
    t.signUp('Bea Buyer'),
    t.signUp('Oscar Outsider'),
  ]);
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

async function onSale(ticketTypes = [{ name: 'Seat', capacity: 10, price: 2000 }]) {
  const created = await createPublishedEvent(t, owner.cookie, { capacity: 20, ticketTypes });
  await addMember(t, created.organizationId, admin.user.id, 'admin');
  await addMember(t, created.organizationId, staff.user.id, 'staff');
  return created;
}

const eventFields = (eventId: string, overrides: Partial<UpdateEventInput> = {}): UpdateEventInput => ({
  eventId,
  title: 'Jazz night',
  description: '',
  venue: 'Club Blau',
  timeZone: 'Europe/Berlin',
  startsAtLocal: '2030-01-10T19:00',
  endsAtLocal: '2030-01-10T23:00',
  capacity: 20,
  currency: 'EUR',
  ...overrides,
});

const typeFields = (ticketTypeId: string, overrides: Partial<UpdateTicketTypeInput> = {}): UpdateTicketTypeInput => ({
  ticketTypeId,
  name: 'Seat',
  price: 2000,
  capacity: 10,
  maxPerOrder: 10,
  salesStartLocal: null,
  salesEndLocal: null,
  hidden: false,
  ...overrides,
});

const stored = async (eventId: string) => (await t.db.select().from(event).where(eq(event.id, eventId)))[0]!;
const auditOf = (eventId: string) => t.db.select().from(auditLog).where(eq(auditLog.eventId, eventId)).orderBy(asc(auditLog.at));
const order = (eventId: string, ticketTypeId: string, quantity: number) =>
  t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, buyer.cookie);

describe('editing an event', () => {
  it('lets an admin change its fields, live on an open page, and records who changed what', async () => {
    const created = await onSale();
    const page = await watch(url, 'events.public', { slug: created.slug });

    const { body } = await t.call(
      updateEvent,
      eventFields(created.eventId, { title: 'Jazz night, moved', venue: 'Hall 2', startsAtLocal: '2030-01-10T20:00' }),
      admin.cookie,
    );

    expect(body.result).toEqual({ changed: ['title', 'venue', 'startsAt'], change: { id: expect.any(String), holders: 0 } });
    await expect.poll(() => page.rows()[0]?.title, { timeout: 5_000 }).toBe('Jazz night, moved');
    page.close();
    expect(await stored(created.eventId)).toMatchObject({ venue: 'Hall 2', startsAt: new Date('2030-01-10T19:00:00Z') });
    const [, , , changed] = await auditOf(created.eventId);
    expect(changed).toMatchObject({
      action: 'event.update',
      actorName: 'Adam Admin',
      target: 'Jazz night',
      details: { fields: ['title', 'venue', 'startsAt'], venue: { from: 'Club Blau', to: 'Hall 2' } },
    });
  });

  it('refuses staff and outsiders, a capacity below what is sold and held, and a new currency once on sale', async () => {
    const created = await onSale();
    await order(created.eventId, created.ticketTypeIds[0]!, 4);

    expect((await t.call(updateEvent, eventFields(created.eventId), staff.cookie)).body.error?.status).toBe('permission-denied');
    expect((await t.call(updateEvent, eventFields(created.eventId), outsider.cookie)).body.error?.status).toBe('not-found');
    const low = await t.call(updateEvent, eventFields(created.eventId, { capacity: 3 }), admin.cookie);
    expect(low.body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'capacity-below-taken', taken: 4 },
    });
    const currency = await t.call(updateEvent, eventFields(created.eventId, { currency: 'USD' }), admin.cookie);
    expect(currency.body.error?.details).toEqual({ reason: 'fixed-after-sales', field: 'currency' });
    expect(await stored(created.eventId)).toMatchObject({ capacity: 20, currency: 'EUR' });

    const exact = await t.call(updateEvent, eventFields(created.eventId, { capacity: 4 }), admin.cookie);
    expect(exact.body.result).toEqual({ changed: ['capacity'], change: null });
  });
});

describe('editing ticket types', () => {
  it('applies a new price to new orders only, and refuses a capacity below what is taken', async () => {
    const created = await onSale();
    const [seat] = created.ticketTypeIds as [string];
    const before = (await order(created.eventId, seat, 2)).body.result.orderId;

    const raised = await t.call(updateTicketType, typeFields(seat, { price: 2500, name: 'Seat (late)' }), admin.cookie);
    const after = (await order(created.eventId, seat, 1)).body.result.orderId;

    expect(raised.body.result).toEqual({ changed: ['name', 'price'] });
    const priceOf = async (orderId: string) =>
      (await t.db.select().from(orderLine).where(eq(orderLine.orderId, orderId)))[0]!.unitPrice;
    expect([await priceOf(before), await priceOf(after)]).toEqual([2000, 2500]);
    const low = await t.call(updateTicketType, typeFields(seat, { capacity: 2, price: 2500 }), admin.cookie);
    expect(low.body.error?.details).toEqual({ reason: 'capacity-below-taken', taken: 3 });
    expect((await t.call(updateTicketType, typeFields(seat), staff.cookie)).body.error?.status).toBe('permission-denied');
    expect((await auditOf(created.eventId)).at(-1)).toMatchObject({
      action: 'ticketType.update',
      target: 'Seat',
      details: { price: { from: 2000, to: 2500 } },
    });
  });

  it('hides a ticket type from buyers, reorders them, and removes only one nobody ordered', async () => {
    const created = await onSale([
      { name: 'Seat', capacity: 10, price: 2000 },
      { name: 'Standing', capacity: 10, price: 1000 },
      { name: 'Balcony', capacity: 10, price: 3000 },
    ]);
    const [seat, standing, balcony] = created.ticketTypeIds as [string, string, string];
    const shop = await watch(url, ticketAvailability.name, { eventId: created.eventId });
    await expect.poll(() => shop.rows().length, { timeout: 5_000 }).toBe(3);

    await t.call(updateTicketType, typeFields(standing, { name: 'Standing', price: 1000, hidden: true }), admin.cookie);
    await expect.poll(() => shop.rows().map((row) => row.name), { timeout: 5_000 }).toEqual(['Seat', 'Balcony']);
    await t.call(reorderTicketTypes, { eventId: created.eventId, ticketTypeIds: [balcony, seat, standing] }, admin.cookie);
    await expect.poll(() => shop.rows().map((row) => row.name), { timeout: 5_000 }).toEqual(['Balcony', 'Seat']);
    shop.close();
    const partial = await t.call(
      reorderTicketTypes,
      { eventId: created.eventId, ticketTypeIds: [seat, seat, balcony] },
      admin.cookie,
    );
    expect(partial.body.error?.status).toBe('invalid-argument');

    // Ordered once and cancelled: nothing is sold, but its order line still names it.
    const left = (await order(created.eventId, seat, 1)).body.result.orderId;
    await t.call(cancelOrder, { orderId: left }, buyer.cookie);
    const ordered = await t.call(removeTicketType, { ticketTypeId: seat }, admin.cookie);
    expect(ordered.body.error?.details).toEqual({ reason: 'ticket-type-ordered' });
    await order(created.eventId, balcony, 1);
    expect((await t.call(removeTicketType, { ticketTypeId: balcony }, admin.cookie)).body.error?.details).toEqual({
      reason: 'ticket-type-ordered',
    });
    expect((await t.call(removeTicketType, { ticketTypeId: standing }, staff.cookie)).body.error?.status).toBe(
      'permission-denied',
    );

    expect((await t.call(removeTicketType, { ticketTypeId: standing }, admin.cookie)).body.result).toEqual({ ok: true });
    expect(await t.db.select().from(ticketType).where(eq(ticketType.id, standing))).toEqual([]);
    expect((await auditOf(created.eventId)).at(-1)).toMatchObject({ action: 'ticketType.remove', target: 'Standing' });
  });
});

describe('moving an event through its statuses', () => {
  it('closes and reopens sales, ends the event, and refuses what its status does not allow', async () => {
    const created = await onSale();
    const [seat] = created.ticketTypeIds as [string];
    const move = (move: 'unpublish' | 'closeSales' | 'reopenSales' | 'end' | 'publish', cookie = admin.cookie) =>
      t.call(moveEvent, { eventId: created.eventId, move }, cookie);

    expect((await move('closeSales', staff.cookie)).body.error?.status).toBe('permission-denied');
    expect((await move('closeSales')).body.result).toEqual({ status: 'sales_closed' });
    expect((await order(created.eventId, seat, 1)).body.error?.details).toMatchObject({ reason: 'event-not-on-sale' });
    expect((await move('publish')).body.error?.details).toEqual({
      reason: 'move-not-allowed',
      status: 'sales_closed',
      move: 'publish',
    });
    expect((await move('reopenSales')).body.result).toEqual({ status: 'published' });
    await order(created.eventId, seat, 1);
    expect((await move('unpublish')).body.error?.details).toEqual({ reason: 'has-sales', sold: 0, held: 1 });
    expect((await move('end')).body.result).toEqual({ status: 'ended' });
    expect((await move('reopenSales')).body.error?.details).toMatchObject({ reason: 'move-not-allowed', status: 'ended' });
    expect((await auditOf(created.eventId)).map((one) => one.action).slice(-3)).toEqual([
      'event.closeSales',
      'event.reopenSales',
      'event.end',
    ]);
  });

  it('unpublishes back to draft while nothing is sold or held', async () => {
    const created = await onSale();
    expect((await t.call(moveEvent, { eventId: created.eventId, move: 'unpublish' }, admin.cookie)).body.result).toEqual({
      status: 'draft',
    });
    // Back in draft, with nothing sold: the currency may change again.
    const changed = await t.call(updateEvent, eventFields(created.eventId, { currency: 'USD' }), admin.cookie);
    expect(changed.body.result).toEqual({ changed: ['currency'], change: null });
  });
});
