import { randomUUID } from 'node:crypto';
import { updateTicketType } from '@admit/shared/event-changes';
import { createOrder, refundOrder } from '@admit/shared/orders';
import {
  acceptWaitlistOffer,
  configureWaitlist,
  joinWaitlist,
  leaveWaitlist,
  offerWaitlistEntry,
  removeWaitlistEntry,
} from '@admit/shared/waitlist';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { releaseHold } from '../orders/orders.api';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';
import { waitlistEntry } from './schema';

// A sold-out ticket type's waiting list (decision 0064): people join in turn, places that come free
// are offered to them before the public, each offer a hold of what they asked for that they pay or
// accept, or that ends and goes to the next person.

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

type Person = Awaited<ReturnType<TestApp['signUp']>>;

/** A published event of one ticket type of `capacity` places, its list on, and its places taken by `capacity` free orders. */
async function soldOutEvent(options: { capacity: number; price?: number; partialOffers?: boolean; maxPerOrder?: number }) {
  const owner = await t.signUp('Olga Organizer');
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [{ capacity: options.capacity, price: options.price ?? 0, maxPerOrder: options.maxPerOrder ?? 10 }],
  });
  const ticketTypeId = ticketTypeIds[0]!;
  const configured = await t.call(
    configureWaitlist,
    { eventId, enabled: true, offerHours: 24, partialOffers: options.partialOffers ?? false },
    owner.cookie,
  );
  expect(configured.status).toBe(200);
  return { owner, eventId, ticketTypeId };
}

/** `count` free orders of one ticket each, by as many people. */
async function fillWithFreeOrders(eventId: string, ticketTypeId: string, count: number) {
  const orderIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const buyer = await t.signUp(`Holder ${index}`);
    const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, buyer.cookie);
    expect(placed.status).toBe(200);
    orderIds.push(placed.body.result.orderId);
  }
  return orderIds;
}

async function join(person: Person, eventId: string, ticketTypeId: string, quantity = 1) {
  return t.call(joinWaitlist, { eventId, ticketTypeId, quantity }, person.cookie);
}

/** The entries' statuses once the jobs a change enqueued (and a refund's provider) are done with them. */
const statusesOf = async (ticketTypeId: string) => {
  await t.settleJobs();
  return (await entriesOf(ticketTypeId)).map((entry) => entry.status);
};

const entriesOf = (ticketTypeId: string) =>
  t.db
    .select()
    .from(waitlistEntry)
    .where(eq(waitlistEntry.ticketTypeId, ticketTypeId))
    .orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id));

async function refund(owner: Person, orderId: string) {
  const refunded = await t.call(refundOrder, { orderId, reason: 'Cannot come', idempotencyKey: randomUUID() }, owner.cookie);
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
}

describe('the waiting list', () => {
  it('lets people join a sold-out ticket type in turn, and keeps its freed places from the public while they wait', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 2 });
    const early = await t.signUp('Early Erin');
    // Places anyone may buy: nothing to wait for.
    expect((await join(early, eventId, ticketTypeId)).body.error.details).toMatchObject({ reason: 'not-sold-out', remaining: 2 });
    const [first] = await fillWithFreeOrders(eventId, ticketTypeId, 2);

    const ann = await t.signUp('Ann Waiting');
    const ben = await t.signUp('Ben Waiting');
    expect((await join(ann, eventId, ticketTypeId, 2)).body.result).toMatchObject({ position: 1 });
    expect((await join(ben, eventId, ticketTypeId)).body.result).toMatchObject({ position: 2 });
    expect((await join(ben, eventId, ticketTypeId)).body.error.details).toMatchObject({ reason: 'already-on-list' });

    const mine = await watch(url, 'waitlist.mine', { eventId }, ben.cookie);
    try {
      expect(mine.rows()).toMatchObject([{ status: 'waiting', position: 2, offer: null }]);
      // One place comes free: Ann asked for two, so she waits for a second, and Ben behind her.
      await refund(owner, first!);
      await t.settleJobs();
      expect((await entriesOf(ticketTypeId)).map((entry) => entry.status)).toEqual(['waiting', 'waiting']);
      const late = await t.signUp('Late Larry');
      const bought = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, late.cookie);
      expect(bought.body.error).toMatchObject({ status: 'resource-exhausted', details: { remaining: 0 } });

      // Ann leaves: Ben is first, and the free place is offered to him at once.
      const annEntry = (await entriesOf(ticketTypeId))[0]!;
      expect((await t.call(leaveWaitlist, { entryId: annEntry.id }, ann.cookie)).body.result).toEqual({ status: 'left' });
      await t.settleJobs();
      await expect.poll(() => mine.rows()[0]?.status).toBe('offered');
      expect(mine.rows()[0]).toMatchObject({ position: null, offer: { quantity: 1, total: 0 } });

      // Free: Ben accepts, and has his ticket.
      const benEntry = mine.rows()[0]!;
      const accepted = await t.call(acceptWaitlistOffer, { entryId: benEntry.id }, ben.cookie);
      expect(accepted.body.result).toMatchObject({ status: 'paid' });
      await expect.poll(() => mine.rows()[0]?.status).toBe('accepted');
      const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, accepted.body.result.orderId));
      expect(tickets).toHaveLength(1);
      // Nobody waits any more: the public may buy again (nothing is free now).
      expect(await dataInvariantViolations(t.db)).toEqual([]);
    } finally {
      mine.close();
    }
  });

  // 120 people sign up (a password hashed each): half a minute on a quiet machine, more on a busy one.
  it(
    'offers exactly as many places as come free, in the order people joined, when a hundred wait and twenty refunds come at once',
    { timeout: 180_000 },
    async () => {
      const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 20 });
      const orderIds = await fillWithFreeOrders(eventId, ticketTypeId, 20);
      const people: Person[] = [];
      for (let index = 0; index < 100; index++) people.push(await t.signUp(`Waiting ${index}`));
      for (const person of people) {
        const joined = await join(person, eventId, ticketTypeId);
        expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      }

      await Promise.all(orderIds.map((orderId) => refund(owner, orderId)));
      await t.settleJobs();

      const entries = await entriesOf(ticketTypeId);
      expect(entries.slice(0, 20).every((entry) => entry.status === 'offered')).toBe(true);
      expect(entries.slice(20).every((entry) => entry.status === 'waiting')).toBe(true);
      expect(entries.slice(0, 20).map((entry) => entry.name)).toEqual(people.slice(0, 20).map((_, index) => `Waiting ${index}`));
      const [type] = await t.db.select().from(ticketType).where(eq(ticketType.id, ticketTypeId));
      expect(type).toMatchObject({ held: 20, sold: 0, waitlistWaiting: 80 });
      expect(await dataInvariantViolations(t.db)).toEqual([]);
    },
  );

  it('moves an offer that ends untaken on to the next person, who pays for it', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 1, price: 1500 });
    const holder = await t.signUp('Hal Holder');
    const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, holder.cookie);
    expect(await payWithTestCard(t, holder.cookie, placed.body.result.orderId)).toBe('paid');
    const [ida, jo] = [await t.signUp('Ida Idle'), await t.signUp('Jo Keen')];
    await join(ida, eventId, ticketTypeId);
    await join(jo, eventId, ticketTypeId);

    await refund(owner, placed.body.result.orderId);
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['offered', 'waiting']);
    const [idaEntry] = await entriesOf(ticketTypeId);
    expect(idaEntry).toMatchObject({ status: 'offered', offeredQuantity: 1 });
    const [offerOrder] = await t.db.select().from(order).where(eq(order.id, idaEntry!.offerOrderId!));
    expect(offerOrder).toMatchObject({ status: 'pending', total: 1500, buyerId: ida.user.id });
    expect(offerOrder!.holdExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    // She is told by email.
    expect((await t.lastMessageTo(ida.user.email)).subject).toMatch(/^Places came free for /);

    // The day passes: her hold ends, and the place goes to Jo.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(order.id, offerOrder!.id));
    await releaseHold(t.db, offerOrder!.id, 'expired', { onlyIfDue: true });
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['offered', 'offered']);
    const [, joEntry] = await entriesOf(ticketTypeId);
    expect(joEntry).toMatchObject({ status: 'offered' });
    expect(await payWithTestCard(t, jo.cookie, joEntry!.offerOrderId!)).toBe('paid');

    const list = await watch(url, 'waitlist.forEvent', { eventId }, owner.cookie);
    try {
      expect(list.rows().map((row) => [row.name, row.status])).toEqual([
        ['Ida Idle', 'expired'],
        ['Jo Keen', 'accepted'],
      ]);
      // The same list, as the organizer downloads it.
      const csv = await t.app.inject({
        method: 'GET',
        url: `/files/events/${eventId}/exports/waitlist.csv`,
        headers: { cookie: owner.cookie },
      });
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.trim().split(/\r?\n/);
      expect(lines[0]).toMatch(/^entry_id,name,email,ticket_type,quantity,status,/);
      expect(lines.slice(1).map((line) => line.split(',').slice(1, 2).concat(line.split(',')[5]!))).toEqual([
        ['Ida Idle', 'expired'],
        ['Jo Keen', 'accepted'],
      ]);
    } finally {
      list.close();
    }
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('offers an entry of three what is free when the organizer chooses so, and its admins offer and remove by hand', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 3, partialOffers: true });
    const orderIds = await fillWithFreeOrders(eventId, ticketTypeId, 3);
    const [kim, lou, max] = [await t.signUp('Kim Three'), await t.signUp('Lou One'), await t.signUp('Max Two')];
    await join(kim, eventId, ticketTypeId, 3);
    await join(lou, eventId, ticketTypeId, 1);
    await join(max, eventId, ticketTypeId, 2);

    // One place comes free: Kim, first, asked for three and is offered the one.
    await refund(owner, orderIds[0]!);
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['offered', 'waiting', 'waiting']);
    const [kimEntry, louEntry, maxEntry] = await entriesOf(ticketTypeId);
    expect(kimEntry).toMatchObject({ status: 'offered', offeredQuantity: 1 });

    // Nothing is free: an offer by hand is refused. Lou is removed; Max is next.
    expect((await t.call(offerWaitlistEntry, { entryId: maxEntry!.id }, owner.cookie)).body.error.details).toMatchObject({
      reason: 'too-few-places',
      free: 0,
    });
    expect((await t.call(removeWaitlistEntry, { entryId: louEntry!.id }, owner.cookie)).body.result).toEqual({
      status: 'removed',
    });
    // Someone not of the organization finds no such entry to remove.
    expect((await t.call(removeWaitlistEntry, { entryId: maxEntry!.id }, kim.cookie)).status).toBe(404);
    await refund(owner, orderIds[1]!);
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['offered', 'removed', 'offered']);
    const after = await t.db.select().from(waitlistEntry).where(eq(waitlistEntry.id, maxEntry!.id));
    expect(after[0]).toMatchObject({ status: 'offered', offeredQuantity: 1 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('keeps the limit per buyer: a person who has their share of a type cannot wait for more of it', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 2 });
    const limited = await t.call(
      updateTicketType,
      {
        ticketTypeId,
        name: 'General',
        price: 0,
        capacity: 2,
        maxPerOrder: 10,
        maxPerBuyer: 2,
        salesStartLocal: null,
        salesEndLocal: null,
        hidden: false,
      },
      owner.cookie,
    );
    expect(limited.status, JSON.stringify(limited.body)).toBe(200);
    await fillWithFreeOrders(eventId, ticketTypeId, 1);
    const other = await t.signUp('Otto Other');
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, other.cookie);
    // Otto has one of two: he may wait for one more, not for two.
    const tooMany = await join(other, eventId, ticketTypeId, 2);
    expect(tooMany.body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'buyer-limit', limit: 2, have: 1, ticketTypeId },
    });
    expect((await join(other, eventId, ticketTypeId, 1)).status).toBe(200);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('offers the places a raised capacity adds to the people waiting, not to the public', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 1 });
    await fillWithFreeOrders(eventId, ticketTypeId, 1);
    const nora = await t.signUp('Nora Next');
    await join(nora, eventId, ticketTypeId);
    const raised = await t.call(
      updateTicketType,
      {
        ticketTypeId,
        name: 'General',
        price: 0,
        capacity: 2,
        maxPerOrder: 10,
        salesStartLocal: null,
        salesEndLocal: null,
        hidden: false,
      },
      owner.cookie,
    );
    expect(raised.status).toBe(200);
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['offered']);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('closes when the event begins, giving the places back to the public', async () => {
    const { eventId, ticketTypeId } = await soldOutEvent({ capacity: 1 });
    await fillWithFreeOrders(eventId, ticketTypeId, 1);
    await join(await t.signUp('Pat Patient'), eventId, ticketTypeId);
    // The event's start comes: its job, enqueued when the list was turned on, runs.
    await t.db
      .update(event)
      .set({ startsAt: new Date(Date.now() - 60_000) })
      .where(eq(event.id, eventId));
    await t.database.execute(
      `update pgboss.job set start_after = now() where name = 'waitlist.closeAtStart' and data->>'eventId' = $1`,
      [eventId],
    );
    await expect.poll(() => statusesOf(ticketTypeId)).toEqual(['closed']);
    const [type] = await t.db.select().from(ticketType).where(eq(ticketType.id, ticketTypeId));
    expect(type!.waitlistWaiting).toBe(0);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('waits for as many places as an entry asked for, and closes when the organizer turns it off', async () => {
    const { owner, eventId, ticketTypeId } = await soldOutEvent({ capacity: 3 });
    const orderIds = await fillWithFreeOrders(eventId, ticketTypeId, 3);
    const [kim, lou] = [await t.signUp('Kim Three'), await t.signUp('Lou One')];
    await join(kim, eventId, ticketTypeId, 3);
    await join(lou, eventId, ticketTypeId, 1);
    await refund(owner, orderIds[0]!);
    await refund(owner, orderIds[1]!);
    await t.settleJobs();
    expect((await entriesOf(ticketTypeId)).map((entry) => entry.status)).toEqual(['waiting', 'waiting']);
    await refund(owner, orderIds[2]!);
    await t.settleJobs();
    expect((await entriesOf(ticketTypeId)).map((entry) => [entry.status, entry.offeredQuantity])).toEqual([
      ['offered', 3],
      ['waiting', null],
    ]);

    await t.call(configureWaitlist, { eventId, enabled: false }, owner.cookie);
    expect((await entriesOf(ticketTypeId)).map((entry) => entry.status)).toEqual(['offered', 'closed']);
    const [type] = await t.db
      .select({ waiting: ticketType.waitlistWaiting })
      .from(ticketType)
      .where(and(eq(ticketType.id, ticketTypeId), sql`true`));
    expect(type).toEqual({ waiting: 0 });
    expect((await join(lou, eventId, ticketTypeId)).body.error.details).toMatchObject({ reason: 'waitlist-closed' });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
