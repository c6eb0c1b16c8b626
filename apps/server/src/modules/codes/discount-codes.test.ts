import { randomUUID } from 'node:crypto';
import { codeTicketTypes, createCode, eventCodes, generateCodes, updateCode, type CreateCodeInput } from '@admit/shared/codes';
import { confirmPayment, createOrder, myOrder, orderDetail, refundOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { releaseExpiredHolds } from '../orders/orders.api';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';

// Discount codes: a percentage or an amount off each ticket of the code's types, within its limits
// (decision 0047). What a buyer pays is the server's price less the code's discount, and the order,
// its email, its refunds and the exports carry it.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;

beforeAll(async () => {
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
});
afterAll(() => t?.close());

/** A published event with Standing at €20.00 and Balcony at €30.00, and a code made with `code`. */
async function eventWithCode(code: (types: { standingId: string; balconyId: string }) => Partial<CreateCodeInput>) {
  const { eventId, slug, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    capacity: 200,
    ticketTypes: [
      { name: 'Standing', capacity: 100, price: 2000 },
      { name: 'Balcony', capacity: 100, price: 3000 },
    ],
  });
  const types = { standingId: ticketTypeIds[0]!, balconyId: ticketTypeIds[1]! };
  const created = await t.call(createCode, { eventId, code: 'SPRING', ...code(types) }, owner.cookie);
  expect(created.status).toBe(200);
  return { eventId, slug, ...types };
}

const pay = (buyer: Person, orderId: string) => payWithTestCard(t, buyer.cookie, orderId);

async function csv(path: string) {
  const response = await t.app.inject({ method: 'GET', url: path, headers: { cookie: owner.cookie } });
  expect(response.statusCode).toBe(200);
  return Papa.parse<Record<string, string>>(response.body, { header: true, skipEmptyLines: true }).data;
}

describe('a discount code', () => {
  it('takes its percentage off the tickets of its types only; the order, the email, the exports and a partial refund carry it', async () => {
    const { eventId, standingId, balconyId } = await eventWithCode(({ standingId }) => ({
      ticketTypeIds: [standingId],
      discount: { kind: 'percent', percent: 25 },
    }));
    const buyer = await t.signUp('Dana Discount');
    const shown = await watch(url, codeTicketTypes.name, { eventId, code: 'spring' });
    expect(shown.rows()).toMatchObject([{ id: standingId, price: 1500, listPrice: 2000, unlocked: false }]);
    shown.close();

    const placed = await t.call(
      createOrder,
      {
        eventId,
        code: 'spring',
        lines: [
          { ticketTypeId: standingId, quantity: 2 },
          { ticketTypeId: balconyId, quantity: 1 },
        ],
      },
      buyer.cookie,
    );
    expect(placed.body.result).toMatchObject({ status: 'pending', total: 2 * 1500 + 3000 });
    const orderId = placed.body.result.orderId as string;
    expect(await pay(buyer, orderId)).toBe('paid');

    const mine = await watch(url, myOrder.name, { orderId }, buyer.cookie);
    expect(mine.rows()[0].lines).toMatchObject([
      { ticketTypeName: 'Standing', quantity: 2, unitPrice: 1500, discount: 500, code: 'SPRING' },
      { ticketTypeName: 'Balcony', quantity: 1, unitPrice: 3000, discount: 0, code: null },
    ]);
    mine.close();
    await expect
      .poll(async () => (await t.lastMessageTo(buyer.email).catch(() => null))?.text ?? '', { timeout: 10_000 })
      .toContain('code SPRING');
    const email = await t.lastMessageTo(buyer.email);
    expect(email.text).toMatch(/2 × Standing at €15\.00 each \(code SPRING: €5\.00 off each\)/);
    expect(email.text).toMatch(/Total\s+€60\.00/);

    const attendees = await csv(`/files/events/${eventId}/exports/attendees.csv`);
    expect(attendees.filter((row) => row.ticket_type === 'Standing')).toMatchObject([
      { price_minor: '1500', discount_minor: '500', code: 'SPRING' },
      { price_minor: '1500', discount_minor: '500', code: 'SPRING' },
    ]);
    expect(attendees.find((row) => row.ticket_type === 'Balcony')).toMatchObject({ price_minor: '3000', code: '' });
    const [orderRow] = await csv(`/files/events/${eventId}/exports/orders.csv`);
    expect(orderRow).toMatchObject({ total_minor: '6000', discount_minor: '1000', codes: 'SPRING' });

    // One Standing ticket given back: what was paid for it, not its price.
    const standingTicket = (await t.db.select().from(ticket).where(eq(ticket.orderId, orderId))).find(
      (one) => one.ticketTypeId === standingId,
    )!;
    const refunded = await t.call(
      refundOrder,
      { orderId, ticketIds: [standingTicket.id], reason: 'Cannot come', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(refunded.body.result).toMatchObject({ amount: 1500, orderStatus: 'partially_refunded' });
    const detail = await watch(url, orderDetail.name, { orderId }, owner.cookie);
    expect(detail.rows()[0].lines[0]).toMatchObject({ discount: 500, code: 'SPRING' });
    detail.close();
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    expect(list.rows()[0]).toMatchObject({ used: 1, discount: { kind: 'percent', percent: 25 } });
    list.close();
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('for an amount never takes a ticket below nothing, is for every visible type when it names none, and an order it makes free is complete at once', async () => {
    const { eventId, standingId, balconyId } = await eventWithCode(() => ({ discount: { kind: 'amount', amount: 2500 } }));
    const buyer = await t.signUp('Fred Free');
    const shown = await watch(url, codeTicketTypes.name, { eventId, code: 'SPRING' });
    expect(shown.rows().map((row) => [row.id, row.price])).toEqual([
      [standingId, 0],
      [balconyId, 500],
    ]);
    shown.close();
    const free = await t.call(
      createOrder,
      { eventId, code: 'SPRING', lines: [{ ticketTypeId: standingId, quantity: 2 }] },
      buyer.cookie,
    );
    expect(free.body.result).toMatchObject({ status: 'paid', total: 0, ticketCount: 2 });
    const balcony = await t.call(
      createOrder,
      { eventId, code: 'SPRING', lines: [{ ticketTypeId: balconyId, quantity: 1 }] },
      buyer.cookie,
    );
    expect(balcony.body.result).toMatchObject({ status: 'pending', total: 500 });
  });

  it('needs its minimum of tickets of its types in one order', async () => {
    const { eventId, standingId, balconyId } = await eventWithCode(({ standingId }) => ({
      ticketTypeIds: [standingId],
      discount: { kind: 'percent', percent: 10 },
      minQuantity: 4,
    }));
    const buyer = await t.signUp('Gina Group');
    const order = (quantity: number) =>
      t.call(
        createOrder,
        {
          eventId,
          code: 'SPRING',
          lines: [
            { ticketTypeId: standingId, quantity },
            { ticketTypeId: balconyId, quantity: 5 },
          ],
        },
        buyer.cookie,
      );
    expect((await order(3)).body.error.details).toEqual({ reason: 'code-min-quantity', minQuantity: 4 });
    expect((await order(4)).body.result).toMatchObject({ total: 4 * 1800 + 5 * 3000 });
  });

  it('is refused without a discount on a visible type, and with a percentage over 100', async () => {
    const { eventId, standingId } = await eventWithCode(() => ({ discount: { kind: 'percent', percent: 10 } }));
    const nothing = await t.call(createCode, { eventId, code: 'NOTHING', ticketTypeIds: [standingId] }, owner.cookie);
    expect(nothing.body.error.details).toEqual({ reason: 'not-hidden-type', ticketTypeId: standingId });
    const empty = await t.call(createCode, { eventId, code: 'EMPTY' }, owner.cookie);
    expect(empty.body.error.details.fields).toMatchObject([{ path: 'ticketTypeIds' }]);
    const tooMuch = await t.callWithAnyInput(
      createCode,
      { eventId, code: 'ALL', discount: { kind: 'percent', percent: 101 } },
      owner.cookie,
    );
    expect(tooMuch.body.error.details.fields).toMatchObject([{ path: 'discount.percent' }]);
  });

  it('is made fifty at once, each different and starting with its prefix, and exported with its link and uses', async () => {
    const { eventId, slug, standingId } = await eventWithCode(() => ({ discount: { kind: 'percent', percent: 10 } }));
    const made = await t.call(
      generateCodes,
      { eventId, count: 50, prefix: 'member', discount: { kind: 'amount', amount: 300 }, maxUses: 1 },
      owner.cookie,
    );
    expect(made.body.result).toEqual({ count: 50 });
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    const members = list.rows().filter((row) => row.code.startsWith('MEMBER-'));
    list.close();
    expect(members).toHaveLength(50);
    expect(new Set(members.map((row) => row.code)).size).toBe(50);
    for (const row of members) expect(row.code).toMatch(/^MEMBER-[A-HJ-NP-Z2-9]{8}$/);

    const buyer = await t.signUp('Mia Member');
    const one = members[0]!.code;
    const bought = await t.call(
      createOrder,
      { eventId, code: one, lines: [{ ticketTypeId: standingId, quantity: 1 }] },
      buyer.cookie,
    );
    expect(bought.body.result).toMatchObject({ total: 1700 });
    const again = await t.call(
      createOrder,
      { eventId, code: one, lines: [{ ticketTypeId: standingId, quantity: 1 }] },
      buyer.cookie,
    );
    expect(again.body.error.details).toEqual({ reason: 'code-used-up', remaining: 0 });

    const rows = await csv(`/files/events/${eventId}/exports/codes.csv?locale=en`);
    expect(rows).toHaveLength(51);
    expect(rows.find((row) => row.code === one)).toMatchObject({
      link: `http://localhost:3000/e/${slug}?code=${one}`,
      discount_amount_minor: '300',
      discount_amount: '€3.00',
      max_uses: '1',
      used: '1',
    });
    expect(rows.find((row) => row.code === 'SPRING')).toMatchObject({ discount_percent: '10', used: '0', max_uses: '' });
    const signedOut = await t.app.inject({ method: 'GET', url: `/files/events/${eventId}/exports/codes.csv` });
    expect(signedOut.statusCode).toBe(401);
  });

  it('honours a payment that comes after its hold ended within the code’s limits, though the code now asks more of an order', async () => {
    const { eventId, standingId } = await eventWithCode(() => ({ discount: { kind: 'percent', percent: 50 }, maxUses: 1 }));
    const buyer = await t.signUp('Lou Late');
    const placed = await t.call(
      createOrder,
      { eventId, code: 'SPRING', lines: [{ ticketTypeId: standingId, quantity: 1 }] },
      buyer.cookie,
    );
    const orderId = placed.body.result.orderId as string;
    const started = await t.call(startPayment, { orderId }, buyer.cookie);
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    const codeId = list.rows()[0].id as string;
    list.close();
    const raised = await t.call(
      updateCode,
      { eventId, codeId, code: 'SPRING', discount: { kind: 'percent', percent: 50 }, maxUses: 1, minQuantity: 3 },
      owner.cookie,
    );
    expect(raised.status).toBe(200);
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, orderId));
    await releaseExpiredHolds(t.db, eventId);
    await t.call(
      sandboxConfirm,
      { clientSecret: started.body.result.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      buyer.cookie,
    );
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');

    // Its one use is taken again: none is left for another buyer.
    const other = await t.signUp('Liv Later');
    const second = await t.call(
      createOrder,
      { eventId, code: 'SPRING', lines: [{ ticketTypeId: standingId, quantity: 3 }] },
      other.cookie,
    );
    expect(second.body.error.details).toEqual({ reason: 'code-used-up', remaining: 0 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
