import { randomUUID } from 'node:crypto';
import { confirmPayment, createOrder, refundOrder, startPayment, type RefundOrderInput } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPayment } from '../../platform/payments/schema';
import { createStripeProvider, type StripeProvider } from '../../platform/payments/stripe-provider';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { startStripeStandIn, type StripeStandIn } from '../../testing/stripe-stand-in';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { reconcileRefunds } from './reconcile-refunds';
import { resendRefund } from './refund-order';
import { order, orderActivity } from '../orders/schema';
import { refund } from './schema';
import { ticket } from '../tickets/schema';

// The specification of refunds, admin's and the provider's, through the sandbox and through Stripe's
// real SDK on the local stand-in: longer than most files because both providers run the same
// cases with one set of helpers.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

/** What each test file needs of its app: people, a paid order made the real way, and reads of the result. */
function helpersFor(app: () => TestApp) {
  const people = {} as { owner: Person; admin: Person; staff: Person; buyer: Person; outsider: Person };

  async function signUpAll() {
    const t = app();
    const [owner, admin, staff, buyer, outsider] = await Promise.all([
      t.signUp('Olga Owner'),
      t.signUp('Adam Admin'),
      t.signUp('Sam Staff'),
      t.signUp('Bea Buyer'),
      t.signUp('Otto Outsider'),
    ]);
    Object.assign(people, { owner, admin, staff, buyer, outsider });
  }

  /** A published event with one ticket type, and an order of `quantity` tickets paid through the payment provider. */
  async function paidOrder(options: { quantity?: number; price?: number; capacity?: number; pay?: (ref: string) => void } = {}) {
    const t = app();
    const { quantity = 2, price = 2500, capacity = 10 } = options;
    const created = await createPublishedEvent(t, people.owner.cookie, { capacity, ticketTypes: [{ capacity, price }] });
    await addMember(t, created.organizationId, people.admin.user.id, 'admin');
    await addMember(t, created.organizationId, people.staff.user.id, 'staff');
    const ticketTypeId = created.ticketTypeIds[0]!;
    const ordered = await t.call(
      createOrder,
      { eventId: created.eventId, lines: [{ ticketTypeId, quantity }] },
      people.buyer.cookie,
    );
    expect(ordered.status).toBe(200);
    const orderId = ordered.body.result.orderId;
    if (price > 0) {
      const started = await t.call(startPayment, { orderId }, people.buyer.cookie);
      expect(started.status).toBe(200);
      const [{ paymentRef } = { paymentRef: null }] = await t.db
        .select({ paymentRef: order.paymentRef })
        .from(order)
        .where(eq(order.id, orderId));
      if (options.pay) options.pay(paymentRef!);
      else {
        const confirmed = await t.call(
          sandboxConfirm,
          { clientSecret: started.body.result.clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' },
          people.buyer.cookie,
        );
        expect(confirmed.body.result.status).toBe('succeeded');
      }
      const paid = await t.call(confirmPayment, { orderId }, people.buyer.cookie);
      expect(paid.body.result.status).toBe('paid');
    }
    const tickets = await ticketsOf(orderId);
    return { ...created, ticketTypeId, orderId, ticketIds: tickets.map((one) => one.id) };
  }

  const refundAs = (cookie: string, data: Omit<RefundOrderInput, 'reason' | 'idempotencyKey'> & Partial<RefundOrderInput>) =>
    app().call(refundOrder, { reason: 'The buyer cannot come', idempotencyKey: randomUUID(), ...data }, cookie);
  /** The same, for input the contract refuses on purpose (a missing field, a ticket id that is a number, an amount). */
  const refundWithAnyInputAs = (cookie: string, data: Record<string, unknown>) =>
    app().callWithAnyInput(refundOrder, { reason: 'The buyer cannot come', idempotencyKey: randomUUID(), ...data }, cookie);

  const ticketsOf = (orderId: string) =>
    app().db.select().from(ticket).where(eq(ticket.orderId, orderId)).orderBy(asc(ticket.id));
  const orderRow = async (orderId: string) => (await app().db.select().from(order).where(eq(order.id, orderId)))[0]!;
  const refundsOf = (orderId: string) => app().db.select().from(refund).where(eq(refund.orderId, orderId));
  const activityOf = (orderId: string) =>
    app().db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId)).orderBy(asc(orderActivity.at));
  async function sold(eventId: string, ticketTypeId: string) {
    const [onEvent] = await app().db.select({ sold: event.sold }).from(event).where(eq(event.id, eventId));
    const [onType] = await app().db.select({ sold: ticketType.sold }).from(ticketType).where(eq(ticketType.id, ticketTypeId));
    return { event: onEvent!.sold, ticketType: onType!.sold };
  }
  const validCount = async (orderId: string) => (await ticketsOf(orderId)).filter((one) => one.status === 'valid').length;

  return {
    people,
    signUpAll,
    paidOrder,
    refundAs,
    refundWithAnyInputAs,
    ticketsOf,
    orderRow,
    refundsOf,
    activityOf,
    sold,
    validCount,
  };
}

describe('refunds by an admin (sandbox payments)', () => {
  let t: TestApp;
  let url: string;
  const h = helpersFor(() => t);
  const { people } = h;

  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await h.signUpAll();
  });
  afterEach(async () => {
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
  afterAll(() => t?.close());

  it('refunds a whole order: every ticket void, their places free again, the order refunded and the money back', async () => {
    const paid = await h.paidOrder({ quantity: 2, price: 2500 });
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 2, ticketType: 2 });

    const { status, body } = await h.refundAs(people.admin.cookie, { orderId: paid.orderId, reason: 'Event moved' });

    expect(status).toBe(200);
    expect(body.result).toMatchObject({ amount: 5000, status: 'succeeded', orderStatus: 'refunded' });
    expect((await h.ticketsOf(paid.orderId)).map((one) => one.status)).toEqual(['void', 'void']);
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 0, ticketType: 0 });
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'refunded', refundedAmount: 5000 });
    const [payment] = await t.db.select().from(sandboxPayment).where(eq(sandboxPayment.orderId, paid.orderId));
    expect(payment!.refunded).toBe(5000);
    const [row] = await h.refundsOf(paid.orderId);
    expect(row).toMatchObject({ amount: 5000, reason: 'Event moved', status: 'succeeded', createdBy: people.admin.user.id });
    expect(row!.ticketIds.sort()).toEqual([...paid.ticketIds].sort());
    const activity = await h.activityOf(paid.orderId);
    expect(activity.filter((line) => line.kind.startsWith('refund_'))).toMatchObject([
      { kind: 'refund_requested', detail: { amount: 5000, reason: 'Event moved', tickets: 2 }, actorId: people.admin.user.id },
      { kind: 'refund_succeeded', detail: { amount: 5000 } },
    ]);
  });

  it('refunds chosen tickets: they become void, the others stay valid, and the order is partly refunded', async () => {
    const paid = await h.paidOrder({ quantity: 3, price: 2500 });

    const first = await h.refundAs(people.owner.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[1]!] });

    expect(first.body.result).toMatchObject({ amount: 2500, status: 'succeeded', orderStatus: 'partially_refunded' });
    expect((await h.ticketsOf(paid.orderId)).map((one) => one.status)).toEqual(
      paid.ticketIds.map((id) => (id === paid.ticketIds[1] ? 'void' : 'valid')),
    );
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 2, ticketType: 2 });
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 2500 });

    // The rest: "the whole order" means what is still valid.
    const rest = await h.refundAs(people.admin.cookie, { orderId: paid.orderId });
    expect(rest.body.result).toMatchObject({ amount: 5000, orderStatus: 'refunded' });
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 0, ticketType: 0 });
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'refunded', refundedAmount: 7500 });
  });

  it('makes the freed places available to the next buyer, and tells every watcher of the event at once', async () => {
    const paid = await h.paidOrder({ quantity: 2, price: 1000, capacity: 2 });
    const soldOut = await t.call(
      createOrder,
      { eventId: paid.eventId, lines: [{ ticketTypeId: paid.ticketTypeId, quantity: 1 }] },
      people.outsider.cookie,
    );
    expect(soldOut.body.error.status).toBe('resource-exhausted');
    const watcher = await watch(url, 'events.availability', { eventId: paid.eventId });
    expect(watcher.rows()).toMatchObject([{ remaining: 0 }]);

    await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!] });

    await expect.poll(() => watcher.rows()[0]?.remaining, { timeout: 5_000 }).toBe(1);
    watcher.close();
    const bought = await t.call(
      createOrder,
      { eventId: paid.eventId, lines: [{ ticketTypeId: paid.ticketTypeId, quantity: 1 }] },
      people.outsider.cookie,
    );
    expect(bought.body.result.status).toBe('pending');
  });

  it('answers the same key again with the same refund, and refunds nothing twice', async () => {
    const paid = await h.paidOrder({ quantity: 2, price: 2500 });
    const request = { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!], idempotencyKey: randomUUID() };

    const first = await h.refundAs(people.admin.cookie, request);
    const again = await h.refundAs(people.admin.cookie, request);
    const [concurrentA, concurrentB] = await Promise.all([
      h.refundAs(people.admin.cookie, request),
      h.refundAs(people.owner.cookie, request),
    ]);

    expect(first.status).toBe(200);
    for (const answer of [again, concurrentA, concurrentB]) expect(answer.body.result).toEqual(first.body.result);
    expect(await h.refundsOf(paid.orderId)).toHaveLength(1);
    expect(await h.validCount(paid.orderId)).toBe(1);
    expect(await h.orderRow(paid.orderId)).toMatchObject({ refundedAmount: 2500 });
    const [payment] = await t.db.select().from(sandboxPayment).where(eq(sandboxPayment.orderId, paid.orderId));
    expect(payment!.refunded).toBe(2500);
    expect((await h.activityOf(paid.orderId)).filter((line) => line.kind === 'refund_requested')).toHaveLength(1);
  });

  it('voids the tickets of a free order without asking the payment provider', async () => {
    const free = await h.paidOrder({ quantity: 2, price: 0 });

    const { body } = await h.refundAs(people.admin.cookie, { orderId: free.orderId });

    expect(body.result).toMatchObject({ amount: 0, status: 'succeeded', orderStatus: 'refunded' });
    expect(await h.validCount(free.orderId)).toBe(0);
    expect(await h.sold(free.eventId, free.ticketTypeId)).toEqual({ event: 0, ticketType: 0 });
    expect(await h.refundsOf(free.orderId)).toMatchObject([{ amount: 0, status: 'succeeded', providerRef: null }]);
  });

  it('refuses with failed-precondition an order that is not paid, and one refunded in full already', async () => {
    const paid = await h.paidOrder({ quantity: 1, price: 2500 });
    const pending = await t.call(
      createOrder,
      { eventId: paid.eventId, lines: [{ ticketTypeId: paid.ticketTypeId, quantity: 1 }] },
      people.buyer.cookie,
    );

    const notPaid = await h.refundAs(people.admin.cookie, { orderId: pending.body.result.orderId });
    expect(notPaid.status).toBe(400);
    expect(notPaid.body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'not-refundable', status: 'pending' },
    });

    expect((await h.refundAs(people.admin.cookie, { orderId: paid.orderId })).status).toBe(200);
    const twice = await h.refundAs(people.admin.cookie, { orderId: paid.orderId });
    expect(twice.body.error).toMatchObject({ status: 'failed-precondition', details: { status: 'refunded' } });
    expect(await h.refundsOf(paid.orderId)).toHaveLength(1);
  });

  it('names each ticket it cannot refund: unknown, already void, of another order, or listed twice', async () => {
    const paid = await h.paidOrder({ quantity: 3, price: 2500 });
    const other = await h.paidOrder({ quantity: 1, price: 2500 });
    await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!] });

    const { status, body } = await h.refundAs(people.admin.cookie, {
      orderId: paid.orderId,
      ticketIds: ['no-such-ticket', paid.ticketIds[0]!, other.ticketIds[0]!, paid.ticketIds[1]!, paid.ticketIds[1]!],
    });

    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(body.error.details.fields.map((field: { path: string }) => field.path)).toEqual([
      'ticketIds.0',
      'ticketIds.1',
      'ticketIds.2',
      'ticketIds.4',
    ]);
    expect(await h.validCount(paid.orderId)).toBe(2);
    expect(await h.validCount(other.orderId)).toBe(1);
  });

  it.each([
    ['no reason', { reason: undefined }, 'reason'],
    ['a blank reason', { reason: '   ' }, 'reason'],
    ['a reason of 501 characters', { reason: 'x'.repeat(501) }, 'reason'],
    ['no idempotency key', { idempotencyKey: undefined }, 'idempotencyKey'],
    ['an empty list of tickets', { ticketIds: [] }, 'ticketIds'],
    ['a ticket id that is a number', { ticketIds: [42] }, 'ticketIds.0'],
    ['an amount sent by the browser', { amount: 1 }, ''],
  ])('answers invalid-argument naming the field for %s', async (_name, change, path) => {
    const paid = await h.paidOrder({ quantity: 1, price: 2500 });

    const { status, body } = await h.refundWithAnyInputAs(people.admin.cookie, { orderId: paid.orderId, ...change });

    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(body.error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
    expect(await h.validCount(paid.orderId)).toBe(1);
  });

  it('lets admins and the owner refund, and refuses staff (permission-denied), outsiders and the buyer (not-found)', async () => {
    const paid = await h.paidOrder({ quantity: 4, price: 1000 });
    const one = (index: number) => ({ orderId: paid.orderId, ticketIds: [paid.ticketIds[index]!] });

    expect((await h.refundAs(people.staff.cookie, one(0))).body.error.status).toBe('permission-denied');
    expect((await h.refundAs(people.outsider.cookie, one(0))).body.error.status).toBe('not-found');
    expect((await h.refundAs(people.buyer.cookie, one(0))).body.error.status).toBe('not-found');
    expect((await t.call(refundOrder, { ...one(0), reason: 'x', idempotencyKey: randomUUID() })).status).toBe(401);
    expect(await h.validCount(paid.orderId)).toBe(4);

    expect((await h.refundAs(people.admin.cookie, one(0))).status).toBe(200);
    expect((await h.refundAs(people.owner.cookie, one(1))).status).toBe(200);
    expect(await h.validCount(paid.orderId)).toBe(2);
  });

  it('shows admins the order with its tickets, refunds and timeline, updating live', async () => {
    const paid = await h.paidOrder({ quantity: 2, price: 2500 });
    const watcher = await watch(url, 'orders.detail', { orderId: paid.orderId }, people.admin.cookie);
    expect(watcher.rows()).toMatchObject([
      { id: paid.orderId, buyerName: 'Bea Buyer', status: 'paid', total: 5000, refundedAmount: 0, refunds: [] },
    ]);
    expect(watcher.rows()[0]!.tickets).toHaveLength(2);

    await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!], reason: 'Ill' });

    // The refund's request and its outcome are written one after the other, and the row may change
    // once for each: what it shows in the end is what counts.
    await expect
      .poll(() => watcher.rows()[0], { timeout: 5_000 })
      .toMatchObject({
        status: 'partially_refunded',
        refundedAmount: 2500,
        refunds: [{ amount: 2500, reason: 'Ill', ticketCount: 1 }],
        activity: expect.arrayContaining([
          expect.objectContaining({ kind: 'refund_requested', actorName: 'Adam Admin' }),
          expect.objectContaining({ kind: 'refund_succeeded', actorName: null }),
        ]),
      });
    const row = watcher.rows()[0]!;
    expect(row.tickets.find((one: { id: string }) => one.id === paid.ticketIds[0])).toMatchObject({
      status: 'void',
      price: 2500,
    });
    watcher.close();
    expect(await subscribeError(url, 'orders.detail', { orderId: paid.orderId }, people.staff.cookie)).toBe('permission-denied');
  });
});

describe('refunds through Stripe (the real SDK on the local stand-in)', () => {
  const keys = { secretKey: 'sk_test_stand_in', publishableKey: 'pk_test_stand_in', webhookSecret: 'whsec_stand_in' };
  let t: TestApp;
  let standIn: StripeStandIn;
  let stripe: StripeProvider;
  let url: string;
  const h = helpersFor(() => t);
  const { people } = h;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    stripe = createStripeProvider({ ...keys, apiBase: standIn.apiBase });
    t = await createTestApp({ payments: stripe });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await h.signUpAll();
  });
  afterEach(async () => {
    standIn.setDown(false);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  const paidAtStripe = (options: { quantity?: number; price?: number } = {}) =>
    h.paidOrder({ ...options, pay: (ref) => standIn.succeed(ref) });
  const stripeRefundsOf = async (orderId: string) => {
    const { paymentRef } = await h.orderRow(orderId);
    return [...standIn.refunds.values()].filter((one) => one.payment_intent === paymentRef);
  };

  it('refunds the chosen tickets at Stripe with the refund’s own key, and the same key again sends nothing new', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    const idempotencyKey = randomUUID();

    const first = await h.refundAs(people.admin.cookie, {
      orderId: paid.orderId,
      ticketIds: [paid.ticketIds[0]!],
      idempotencyKey,
    });
    const again = await h.refundAs(people.admin.cookie, {
      orderId: paid.orderId,
      ticketIds: [paid.ticketIds[0]!],
      idempotencyKey,
    });

    expect(first.body.result).toMatchObject({ amount: 2500, status: 'succeeded', orderStatus: 'partially_refunded' });
    expect(again.body.result).toEqual(first.body.result);
    const atStripe = await stripeRefundsOf(paid.orderId);
    expect(atStripe).toMatchObject([{ amount: 2500, metadata: { admit_refund_key: idempotencyKey } }]);
    expect(standIn.requests.filter((one) => one.path === '/v1/refunds' && one.idempotencyKey === idempotencyKey)).toHaveLength(1);
    expect(await h.refundsOf(paid.orderId)).toMatchObject([{ providerRef: atStripe[0]!.id, status: 'succeeded' }]);
  });

  it('keeps the refund pending and answers unavailable when Stripe cannot be reached; a retry with the same key sends it once', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    const request = { orderId: paid.orderId, ticketIds: [paid.ticketIds[1]!], idempotencyKey: randomUUID() };
    const watcher = await watch(url, 'orders.detail', { orderId: paid.orderId }, people.admin.cookie);
    standIn.setDown(true, 'error');

    const down = await h.refundAs(people.admin.cookie, request);

    expect(down.status).toBe(503);
    expect(down.body.error.status).toBe('unavailable');
    // The failed call still announced what it had committed: the organizer sees the void ticket.
    await expect.poll(() => watcher.rows()[0]?.status, { timeout: 5_000 }).toBe('partially_refunded');
    expect(watcher.rows()[0]!.refunds).toMatchObject([{ status: 'pending' }]);
    watcher.close();
    // Recorded first: the ticket is void and its place free, the money owed is pending.
    expect(await h.refundsOf(paid.orderId)).toMatchObject([{ status: 'pending', providerRef: null, amount: 2500 }]);
    expect(await h.validCount(paid.orderId)).toBe(1);
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 1, ticketType: 1 });
    expect(await stripeRefundsOf(paid.orderId)).toHaveLength(0);

    standIn.setDown(false);
    const retried = await h.refundAs(people.admin.cookie, request);
    const retriedAgain = await h.refundAs(people.admin.cookie, request);

    expect(retried.body.result).toMatchObject({ amount: 2500, status: 'succeeded', orderStatus: 'partially_refunded' });
    expect(retriedAgain.body.result).toEqual(retried.body.result);
    expect(await stripeRefundsOf(paid.orderId)).toHaveLength(1);
    expect(await h.orderRow(paid.orderId)).toMatchObject({ refundedAmount: 2500 });
  });

  it('sends a refund Stripe never answered again from its job a minute later, once, when nobody retries it', async () => {
    const paid = await paidAtStripe({ quantity: 1, price: 1800 });
    standIn.setDown(true, 'error');
    const down = await h.refundAs(people.admin.cookie, { orderId: paid.orderId, idempotencyKey: randomUUID() });
    expect(down.status).toBe(503);
    standIn.setDown(false);

    // Enqueued with the refund, to run a minute later: left meanwhile to the request that may still be sending it.
    const [recorded] = await h.refundsOf(paid.orderId);
    const job = async () =>
      (
        await t.database.execute(
          `select id, state, extract(epoch from start_after - now())::float as wait from pgboss.job where name = 'orders.sendRefund' and data->>'refundId' = $1`,
          [recorded!.id],
        )
      ).rows[0] as { id: string; state: string; wait: number } | undefined;
    expect(await job()).toMatchObject({ state: 'created', wait: expect.any(Number) });
    expect((await job())!.wait).toBeGreaterThan(45);
    expect(await stripeRefundsOf(paid.orderId)).toHaveLength(0);

    // A minute passes.
    await t.database.execute(`update pgboss.job set start_after = now() where id = $1`, [(await job())!.id]);
    await expect.poll(async () => (await h.refundsOf(paid.orderId))[0]?.status, { timeout: 15_000 }).toBe('succeeded');
    await expect.poll(async () => (await job())?.state, { timeout: 10_000 }).toBe('completed');
    // Sending it again (a retry of the job after a crash) sends nothing more.
    expect(await resendRefund(t.db, stripe, t.jobs, recorded!.id)).toBeNull();

    expect(await h.refundsOf(paid.orderId)).toMatchObject([{ status: 'succeeded', amount: 1800 }]);
    expect(await stripeRefundsOf(paid.orderId)).toHaveLength(1);
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'refunded', refundedAmount: 1800 });
  });

  it('matches a refund that reached Stripe before its answer was lost to the refund Admit recorded, by its key', async () => {
    const paid = await paidAtStripe({ quantity: 1, price: 4000 });
    const request = { orderId: paid.orderId, idempotencyKey: randomUUID() };
    standIn.setDown(true, 'error');
    expect((await h.refundAs(people.admin.cookie, request)).status).toBe(503);
    standIn.setDown(false);
    // The call had in fact reached Stripe (its answer was lost): the refund exists there with our key.
    const { paymentRef } = await h.orderRow(paid.orderId);
    await stripe.refund({ paymentRef: paymentRef!, amount: 4000, idempotencyKey: request.idempotencyKey, reason: 'x' });

    const reconciled = await reconcileRefunds(t.db, stripe, paymentRef!);

    expect(reconciled).toMatchObject({ orderId: paid.orderId, changed: true });
    const [row] = await h.refundsOf(paid.orderId);
    expect(row).toMatchObject({
      status: 'succeeded',
      reason: 'The buyer cannot come',
      providerRef: expect.stringMatching(/^re_/),
    });
    expect(await h.refundsOf(paid.orderId)).toHaveLength(1);
    const retried = await h.refundAs(people.admin.cookie, request);
    expect(retried.body.result).toMatchObject({ refundId: row!.id, status: 'succeeded', orderStatus: 'refunded' });
    expect(await stripeRefundsOf(paid.orderId)).toHaveLength(1);
  });

  it('answers failed-precondition when Stripe refuses a refund of more than is left, and gives the tickets back their places', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    // Someone gave 40.00 back in Stripe's dashboard, and its webhook has not come yet.
    standIn.refundInDashboard((await h.orderRow(paid.orderId)).paymentRef!, 4000);

    const refused = await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!] });

    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'refund-refused', providerReason: 'amount_too_large' },
    });
    expect(await h.validCount(paid.orderId)).toBe(2);
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 2, ticketType: 2 });
    // Refused, then the provider's refunds were read: the dashboard refund is on the order now.
    const refunds = await h.refundsOf(paid.orderId);
    expect(refunds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ amount: 2500, status: 'failed', providerRef: null }),
        expect.objectContaining({ amount: 4000, status: 'succeeded', reason: 'Refunded in Stripe', createdBy: null }),
      ]),
    );
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 4000 });

    // A new try gives back what is left (10.00), never more.
    const capped = await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!] });
    expect(capped.body.result).toMatchObject({ amount: 1000, status: 'succeeded', orderStatus: 'partially_refunded' });
    expect(await h.orderRow(paid.orderId)).toMatchObject({ refundedAmount: 5000 });
    expect(await h.validCount(paid.orderId)).toBe(1);
  });

  it('records a whole refund made in Stripe’s dashboard when reconciling: tickets void, places free, order refunded', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    const { paymentRef } = await h.orderRow(paid.orderId);
    const made = standIn.refundInDashboard(paymentRef!);

    expect(await reconcileRefunds(t.db, stripe, paymentRef!)).toMatchObject({
      orderId: paid.orderId,
      changed: true,
      topics: expect.arrayContaining([`order:${paid.orderId}`, `event:${paid.eventId}`]),
    });

    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'refunded', refundedAmount: 5000 });
    expect(await h.validCount(paid.orderId)).toBe(0);
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 0, ticketType: 0 });
    const [row] = await h.refundsOf(paid.orderId);
    expect(row).toMatchObject({ providerRef: made.id, amount: 5000, reason: 'Refunded in Stripe', createdBy: null });
    expect(row!.ticketIds).toHaveLength(2);
    // On the order's timeline (its confirmation email, sent by a job, may come after it).
    expect(await h.activityOf(paid.orderId)).toContainEqual(
      expect.objectContaining({
        kind: 'refund_succeeded',
        detail: expect.objectContaining({ amount: 5000, source: 'provider', tickets: 2 }),
      }),
    );
    // The same event delivered again changes nothing.
    expect(await reconcileRefunds(t.db, stripe, paymentRef!)).toMatchObject({ changed: false });
    expect(await h.refundsOf(paid.orderId)).toHaveLength(1);
  });

  it('leaves the tickets valid after a partial refund in Stripe’s dashboard, and marks the order partly refunded', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    const { paymentRef } = await h.orderRow(paid.orderId);
    standIn.refundInDashboard(paymentRef!, 1000);

    await reconcileRefunds(t.db, stripe, paymentRef!);

    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 1000 });
    expect(await h.validCount(paid.orderId)).toBe(2);
    expect(await h.sold(paid.eventId, paid.ticketTypeId)).toEqual({ event: 2, ticketType: 2 });
  });

  it('takes a refund’s later status from Stripe: a refund that failed no longer counts as money given back', async () => {
    const paid = await paidAtStripe({ quantity: 2, price: 2500 });
    const { body } = await h.refundAs(people.admin.cookie, { orderId: paid.orderId, ticketIds: [paid.ticketIds[0]!] });
    const [atStripe] = await stripeRefundsOf(paid.orderId);
    standIn.setRefundStatus(atStripe!.id, 'failed');

    expect(await reconcileRefunds(t.db, stripe, (await h.orderRow(paid.orderId)).paymentRef!)).toMatchObject({ changed: true });

    expect(await h.refundsOf(paid.orderId)).toMatchObject([{ id: body.result.refundId, status: 'failed' }]);
    // The ticket stays void (its place may be sold again already); the timeline tells the organizer.
    expect(await h.orderRow(paid.orderId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 0 });
    // The refund's email may be logged before or after, so the line is looked for, not taken as the last.
    expect(await h.activityOf(paid.orderId)).toContainEqual(
      expect.objectContaining({ kind: 'refund_failed', detail: expect.objectContaining({ amount: 2500 }) }),
    );
  });

  it('knows nothing of a payment that is not one of its orders', async () => {
    expect(await reconcileRefunds(t.db, stripe, 'pi_somebody_else')).toBeNull();
  });
});

async function subscribeError(baseUrl: string, query: string, params: unknown, cookie: string) {
  return watch(baseUrl, query, params, cookie).then(
    (watcher) => {
      watcher.close();
      return 'ok';
    },
    (error: Error) => error.message,
  );
}
