import { randomUUID } from 'node:crypto';
import { myOrder, cancelOrder, confirmGuestOrder, confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { myTickets, setTicketHolder, ticketsPdfPath } from '@admit/shared/tickets';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeTicketTypeAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';
import { order } from './schema';

// Guest checkout (decision 0060): a visitor buys with a name and an address. Free places wait for
// the link emailed to that address; an order to pay is opened by the token orders.create answers
// with; the token opens its own order only; limits per buyer count by address; and a person who
// signs in with the address finds the orders in My tickets, once.

let t: TestApp;
let url: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ADDRESS: '1000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
});
afterAll(() => t?.close());

const guestAddress = () => `guest-${randomUUID().slice(0, 8)}@example.test`;

/** The order's id and token from the newest email to the address (the link a guest opens). */
async function linkIn(address: string) {
  await t.settleJobs();
  const message = await t.lastMessageTo(address);
  const found = message.text.match(/\/orders\/([^?\s]+)\?token=([A-Za-z0-9_-]+)/);
  if (!found) throw new Error(`no order link in ${message.text}`);
  return { orderId: decodeURIComponent(found[1]!), accessToken: found[2]! };
}

const orderRow = async (orderId: string) => (await t.db.select().from(order).where(eq(order.id, orderId)))[0]!;
const counts = async (eventId: string) =>
  (await t.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, eventId)))[0]!;

async function freeEvent(capacity = 20) {
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity }] });
  return { eventId, ticketTypeId: ticketTypeIds[0]! };
}

/** A guest's free order of `quantity`, confirmed by the emailed link; returns its id and token. */
async function confirmedGuestOrder(eventId: string, ticketTypeId: string, email: string, quantity = 1) {
  const placed = await t.call(createOrder, {
    eventId,
    lines: [{ ticketTypeId, quantity }],
    guest: { name: 'Gina Guest', email },
  });
  expect(placed.status).toBe(200);
  const link = await linkIn(email);
  expect(link.orderId).toBe(placed.body.result.orderId);
  expect((await t.call(confirmGuestOrder, link)).body.result.status).toBe('paid');
  return link;
}

describe('orders.create without a session', () => {
  it('is refused as unauthenticated without a guest, as before', async () => {
    const { eventId, ticketTypeId } = await freeEvent();
    const refused = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] });
    expect(refused.status).toBe(401);
    expect(refused.body.error.status).toBe('unauthenticated');
    const badAddress = await t.callWithAnyInput(createOrder, {
      eventId,
      lines: [{ ticketTypeId, quantity: 1 }],
      guest: { name: 'Gina', email: 'not an address' },
    });
    expect(badAddress.body.error.status).toBe('invalid-argument');
  });

  it("holds a guest's free places until the emailed link is opened, then issues the tickets once", async () => {
    const { eventId, ticketTypeId } = await freeEvent();
    const email = guestAddress();
    const placed = await t.call(createOrder, {
      eventId,
      lines: [{ ticketTypeId, quantity: 2 }],
      // The address as typed: kept in lower case, so limits and sign-in find it.
      guest: { name: 'Gina Guest', email: email.toUpperCase() },
    });
    expect(placed.body.result).toMatchObject({ status: 'pending', ticketCount: 0, total: 0 });
    // The token goes only to the address: whoever typed it cannot issue the tickets.
    expect(placed.body.result.accessToken).toBeUndefined();
    expect(await counts(eventId)).toEqual({ sold: 0, held: 2 });
    expect(await orderRow(placed.body.result.orderId)).toMatchObject({ buyerId: null, email, buyerName: 'Gina Guest' });

    const link = await linkIn(email);
    expect((await t.lastMessageTo(email)).subject).toContain('Confirm your tickets');
    const wrong = await t.call(confirmGuestOrder, { orderId: link.orderId, accessToken: link.accessToken.replace(/^./, 'x') });
    expect(wrong.body.error.status).toBe('not-found');

    const first = await t.call(confirmGuestOrder, link);
    expect(first.body.result?.status, JSON.stringify(first.body)).toBe('paid');
    expect((await t.call(confirmGuestOrder, link)).body.result.status).toBe('paid');
    expect(await counts(eventId)).toEqual({ sold: 2, held: 0 });
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, link.orderId))).toHaveLength(2);
    // The tickets by email, with the same link to the order.
    const confirmation = await linkIn(email);
    expect((await t.lastMessageTo(email)).subject).toContain('Your tickets');
    expect(confirmation).toMatchObject({ orderId: link.orderId, accessToken: link.accessToken });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('ends an unconfirmed hold as an unpaid one ends, and the late link then says expired', async () => {
    const { eventId, ticketTypeId } = await freeEvent();
    const email = guestAddress();
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 3 }], guest: { name: 'Gina', email } });
    const link = await linkIn(email);
    // The hold's time passes and its job runs.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(order.id, link.orderId));
    await t.database.execute(
      `update pgboss.job set start_after = now() where name = 'orders.expireHold' and data->>'orderId' = $1`,
      [link.orderId],
    );
    await expect.poll(async () => (await orderRow(link.orderId)).status).toBe('expired');
    expect(await counts(eventId)).toEqual({ sold: 0, held: 0 });
    expect((await t.call(confirmGuestOrder, link)).body.result.status).toBe('expired');
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, link.orderId))).toHaveLength(0);
  });

  it('answers an order to pay with its token, which pays it without a session', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 5, price: 1500 }],
    });
    const email = guestAddress();
    const placed = await t.call(createOrder, {
      eventId,
      lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }],
      guest: { name: 'Paula Payer', email },
    });
    const { orderId, accessToken } = placed.body.result;
    expect(placed.body.result.status).toBe('pending');
    expect(accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await t.call(startPayment, { orderId })).body.error.status).toBe('unauthenticated');
    const started = await t.call(startPayment, { orderId, accessToken });
    const paid = await t.call(sandboxConfirm, {
      clientSecret: started.body.result.clientSecret,
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(paid.body.result.status).toBe('succeeded');
    expect((await t.call(confirmPayment, { orderId, accessToken })).body.result.status).toBe('paid');
    const confirmation = await linkIn(email);
    expect(confirmation).toMatchObject({ orderId, accessToken });
  });
});

describe("a guest's token", () => {
  it('opens its order (page, PDF, holder names) and no other', async () => {
    const { eventId, ticketTypeId } = await freeEvent();
    const mine = await confirmedGuestOrder(eventId, ticketTypeId, guestAddress());
    const theirs = await confirmedGuestOrder(eventId, ticketTypeId, guestAddress());
    const [theirTicket] = await t.db.select().from(ticket).where(eq(ticket.orderId, theirs.orderId));
    const [myTicket] = await t.db.select().from(ticket).where(eq(ticket.orderId, mine.orderId));

    const page = await watch(url, myOrder.name, mine);
    try {
      await expect.poll(() => page.rows()[0]?.status).toBe('paid');
    } finally {
      page.close();
    }
    const pdf = await t.app.inject({ method: 'GET', url: ticketsPdfPath(mine.orderId, mine.accessToken) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const renamed = await t.call(setTicketHolder, { ticketId: myTicket!.id, name: 'Hugo Holder', accessToken: mine.accessToken });
    expect(renamed.body.result).toEqual({ holderName: 'Hugo Holder' });

    // My token with another order's id, or with another order's ticket: as if it did not exist.
    const other = { orderId: theirs.orderId, accessToken: mine.accessToken };
    await expect(watch(url, myOrder.name, other)).rejects.toThrow('not-found');
    expect((await t.app.inject({ method: 'GET', url: ticketsPdfPath(theirs.orderId, mine.accessToken) })).statusCode).toBe(404);
    expect((await t.call(cancelOrder, other)).body.error.status).toBe('not-found');
    expect((await t.call(confirmGuestOrder, other)).body.error.status).toBe('not-found');
    const stolen = await t.call(setTicketHolder, { ticketId: theirTicket!.id, name: 'Thief', accessToken: mine.accessToken });
    expect(stolen.body.error.status).toBe('not-found');
    expect((await t.db.select().from(ticket).where(eq(ticket.id, theirTicket!.id)))[0]!.holderName).toBe('Gina Guest');
  });
});

describe('limits per buyer', () => {
  it("count a guest's orders and a person's under the same address together", async () => {
    const { eventId, ticketTypeId } = await freeEvent(50);
    await changeTicketTypeAs(t, url, owner.cookie, { eventId, ticketTypeId }, { maxPerBuyer: 2 });
    const person = await t.signUp('Pia Person');
    expect((await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, person.cookie)).status).toBe(200);

    // As a guest with the person's address (any case): one more, not two.
    const asGuest = (quantity: number) =>
      t.call(createOrder, {
        eventId,
        lines: [{ ticketTypeId, quantity }],
        guest: { name: 'Pia', email: person.email.toUpperCase() },
      });
    const tooMany = await asGuest(2);
    expect(tooMany.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'buyer-limit', have: 1 } });
    expect((await asGuest(1)).status).toBe(200);
    // The guest's held place counts against the person too.
    const again = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, person.cookie);
    expect(again.body.error).toMatchObject({ details: { reason: 'buyer-limit', have: 2 } });
  });

  it("count a guest's attempts per address as a person's per account", async () => {
    const limited = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '2', ORDER_ATTEMPTS_PER_ADDRESS: '100' } });
    try {
      const organizer = await limited.signUp('Olga');
      const { eventId, ticketTypeIds } = await createPublishedEvent(limited, organizer.cookie, {
        ticketTypes: [{ capacity: 50 }],
      });
      const email = guestAddress();
      const attempt = () =>
        limited.call(createOrder, {
          eventId,
          lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }],
          guest: { name: 'Quinn', email },
        });
      expect((await attempt()).status).toBe(200);
      expect((await attempt()).status).toBe(200);
      expect((await attempt()).body.error).toMatchObject({
        status: 'resource-exhausted',
        details: { reason: 'too-many-orders' },
      });
    } finally {
      await limited.close();
    }
  });
});

describe('signing in with the address', () => {
  it("shows a guest's orders in My tickets, once", async () => {
    const { eventId, ticketTypeId } = await freeEvent();
    const email = guestAddress();
    const first = await confirmedGuestOrder(eventId, ticketTypeId, email, 2);
    // Made the account with the same address and verified it (which signs in).
    const person = await t.signUp('Gina Guest', email);
    expect((await orderRow(first.orderId)).buyerId).toBe(person.user.id);

    const tickets = await watch(url, myTickets.name, {}, person.cookie);
    try {
      await expect.poll(() => tickets.rows().length).toBe(2);
      expect(new Set(tickets.rows().map((row) => (row as { orderId: string }).orderId))).toEqual(new Set([first.orderId]));
    } finally {
      tickets.close();
    }
    // The link in the email still opens the order.
    const page = await watch(url, myOrder.name, first);
    try {
      await expect.poll(() => page.rows()[0]?.status).toBe('paid');
    } finally {
      page.close();
    }
  });
});
