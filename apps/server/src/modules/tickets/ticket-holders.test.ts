import { updateEvent } from '@admit/shared/event-changes';
import { createOrder } from '@admit/shared/orders';
import { setTicketHolder } from '@admit/shared/tickets';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { user } from '../../platform/auth/schema';
import { ticket } from './schema';
import { order, orderActivity } from '../orders/schema';

// Tickets carry the name of the person they are for: the buyer's by default, changed by the buyer
// until the event starts; a buyer without a name is shown by their phone number or address.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
let t: TestApp;
let owner: Person;
let buyer: Person;
let other: Person;

beforeAll(async () => {
  t = await createTestApp();
  [owner, buyer, other] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Bea Buyer'), t.signUp('Otto Other')]);
});
afterAll(() => t?.close());

async function ticketsOfNewOrder(cookie: string, quantity = 2) {
  const created = await createPublishedEvent(t, owner.cookie);
  const ordered = await t.call(
    createOrder,
    { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity }] },
    cookie,
  );
  const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, ordered.body.result.orderId)).orderBy(asc(ticket.id));
  return { ...created, orderId: ordered.body.result.orderId, tickets };
}

describe('ticket holders', () => {
  it('default to the buyer, and the buyer names each ticket’s holder, recorded on the order’s timeline', async () => {
    const { tickets, orderId } = await ticketsOfNewOrder(buyer.cookie);
    expect(tickets.map((one) => one.holderName)).toEqual(['Bea Buyer', 'Bea Buyer']);

    const named = await t.call(setTicketHolder, { ticketId: tickets[1]!.id, name: '  Carl Companion ' }, buyer.cookie);

    expect(named.body.result).toEqual({ holderName: 'Carl Companion' });
    const [after] = await t.db.select().from(ticket).where(eq(ticket.id, tickets[1]!.id));
    expect(after!.holderName).toBe('Carl Companion');
    const lines = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
    expect(lines.filter((line) => line.kind === 'holder_changed')).toMatchObject([
      { detail: { from: 'Bea Buyer', to: 'Carl Companion' }, actorId: buyer.user.id },
    ]);
  });

  it('may be changed by nobody but the buyer, and not once the event has started', async () => {
    const { tickets, eventId } = await ticketsOfNewOrder(buyer.cookie, 1);
    expect((await t.call(setTicketHolder, { ticketId: tickets[0]!.id, name: 'Mallory' }, other.cookie)).body.error?.status).toBe(
      'not-found',
    );
    expect((await t.call(setTicketHolder, { ticketId: tickets[0]!.id, name: '   ' }, buyer.cookie)).body.error?.status).toBe(
      'invalid-argument',
    );
    await t.call(
      updateEvent,
      {
        eventId,
        title: 'Jazz night',
        description: '',
        venue: 'Club Blau',
        timeZone: 'Europe/Berlin',
        startsAtLocal: '2020-01-10T19:00',
        endsAtLocal: '2030-01-10T23:00',
        capacity: 100,
        currency: 'EUR',
      },
      owner.cookie,
    );
    const started = await t.call(setTicketHolder, { ticketId: tickets[0]!.id, name: 'Late Larry' }, buyer.cookie);
    expect(started.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'holder-fixed' } });
  });

  it('show a buyer without a name by their phone number, never by the reserved address', async () => {
    // An account made by phone has the reserved address and no name until its person gives one
    // (phone.test.ts signs up that way through the real code; here the account is made so directly).
    const person = await t.signUp('Pat Phone');
    await t.db
      .update(user)
      .set({ name: '', email: 'phone-4915123456789@phone.admit.invalid' })
      .where(eq(user.id, person.user.id));
    const { orderId, tickets } = await ticketsOfNewOrder(person.cookie, 1);
    const [placed] = await t.db.select().from(order).where(eq(order.id, orderId));
    expect(placed!.buyerName).toBe('+49 1512 3456789');
    expect(tickets[0]!.holderName).toBe('+49 1512 3456789');
  });
});
