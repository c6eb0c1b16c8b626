import { cancelEvent, deleteEvent, moveEvent } from '@admit/shared/event-changes';
import { setAccountLanguage } from '@admit/shared/account';
import { cancelOrder, confirmPayment, createOrder, formatOrderReference, startPayment } from '@admit/shared/orders';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/schema';
import { outboxMessage } from '../../platform/mail/schema';
import { createStripeProvider } from '../../platform/payments/stripe-provider';
import { addMember, createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { startStripeStandIn, type StripeStandIn } from '../../testing/stripe-stand-in';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';
import { order, orderActivity } from '../orders/schema';
import { refund } from './schema';

// Cancelling an event through Stripe's real SDK on the local stand-in: every paid order refunded
// once, every buyer told once in their language, also when Stripe fails midway and the work resumes.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
const keys = { secretKey: 'sk_test_stand_in', publishableKey: 'pk_test_stand_in', webhookSecret: 'whsec_stand_in' };

let t: TestApp;
let standIn: StripeStandIn;
let url: string;
let owner: Person;
let admin: Person;
let staff: Person;
let buyers: Person[];

beforeAll(async () => {
  standIn = await startStripeStandIn();
  t = await createTestApp({ payments: createStripeProvider({ ...keys, apiBase: standIn.apiBase }) });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, admin, staff, ...buyers] = await Promise.all([
    t.signUp('Olga Owner'),
    t.signUp('Adam Admin'),
    t.signUp('Sam Staff'),
    t.signUp('Bea Buyer'),
    t.signUp('Bernd Käufer'),
    t.signUp('Cleo Buyer'),
    t.signUp('Dora Buyer'),
  ]);
});
afterEach(async () => {
  standIn.setDown(false);
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

/** A published event of paid and free tickets, with our admin and staff. */
async function eventOnSale() {
  const created = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [
      { name: 'Seat', capacity: 20, price: 2500 },
      { name: 'Guest', capacity: 20, price: 0 },
    ],
  });
  await addMember(t, created.organizationId, admin.user.id, 'admin');
  await addMember(t, created.organizationId, staff.user.id, 'staff');
  return created;
}

async function paidOrder(buyer: Person, eventId: string, ticketTypeId: string, quantity: number) {
  const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, buyer.cookie);
  const orderId = ordered.body.result.orderId;
  await t.call(startPayment, { orderId }, buyer.cookie);
  standIn.succeed((await orderRow(orderId)).paymentRef!);
  expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
  return orderId;
}

const orderRow = async (orderId: string) => (await t.db.select().from(order).where(eq(order.id, orderId)))[0]!;
const stripeRefundsOf = async (orderId: string) => {
  const { paymentRef } = await orderRow(orderId);
  return [...standIn.refunds.values()].filter((one) => one.payment_intent === paymentRef);
};
const emailsTo = (to: string) =>
  t.db
    .select()
    .from(outboxMessage)
    .where(and(eq(outboxMessage.to, to), eq(outboxMessage.channel, 'email')))
    .orderBy(asc(outboxMessage.createdAt));
const validTickets = async (orderId: string) =>
  (await t.db.select().from(ticket).where(eq(ticket.orderId, orderId))).filter((one) => one.status === 'valid').length;

describe('cancelling an event', () => {
  it('refunds every paid order in full, voids every ticket, ends holds, emails each buyer once in their language, and the public page says cancelled', async () => {
    const created = await eventOnSale();
    const [seat, guest] = created.ticketTypeIds as [string, string];
    const paidA = await paidOrder(buyers[0]!, created.eventId, seat, 2);
    const paidB = await paidOrder(buyers[1]!, created.eventId, seat, 1);
    await t.db.update(order).set({ locale: 'de' }).where(eq(order.id, paidB));
    const free = (
      await t.call(createOrder, { eventId: created.eventId, lines: [{ ticketTypeId: guest, quantity: 1 }] }, buyers[2]!.cookie)
    ).body.result.orderId;
    const pending = (
      await t.call(createOrder, { eventId: created.eventId, lines: [{ ticketTypeId: seat, quantity: 3 }] }, buyers[3]!.cookie)
    ).body.result.orderId;
    const page = await watch(url, 'events.public', { slug: created.slug });

    const cancelled = await t.call(cancelEvent, { eventId: created.eventId, message: 'The band is ill.' }, admin.cookie);

    expect(cancelled.body.result).toEqual({ status: 'cancelled', ordersToRefund: 3 });
    await expect.poll(() => page.rows()[0]?.status, { timeout: 5_000 }).toBe('cancelled');
    page.close();
    await t.settleJobs();
    expect((await stripeRefundsOf(paidA)).map((one) => one.amount)).toEqual([5000]);
    expect((await stripeRefundsOf(paidB)).map((one) => one.amount)).toEqual([2500]);
    for (const orderId of [paidA, paidB, free]) {
      expect(await orderRow(orderId)).toMatchObject({ status: 'refunded' });
      expect(await validTickets(orderId)).toBe(0);
    }
    expect(await orderRow(pending)).toMatchObject({ status: 'cancelled' });
    expect((await t.db.select().from(event).where(eq(event.id, created.eventId)))[0]).toMatchObject({ sold: 0, held: 0 });

    const [toA] = await emailsTo(buyers[0]!.email).then((all) => all.filter((one) => one.subject.includes('cancelled')));
    expect(toA!.subject).toBe('Jazz night is cancelled');
    expect(toA!.text).toContain('The band is ill.');
    expect(toA!.text).toContain('€50.00');
    const german = (await emailsTo(buyers[1]!.email)).filter((one) => one.subject.includes('abgesagt'));
    expect(german).toHaveLength(1);
    expect(german[0]!.text).toContain('25,00');
    // Found by its subject: the free order's confirmation (its PDF) may be written after it.
    const toFree = (await emailsTo(buyers[2]!.email)).filter((one) => one.subject.includes('cancelled'));
    expect(toFree).toHaveLength(1);
    expect(toFree[0]!.text).toContain('nothing to refund');
    // Told once, in the cancellation notice: no separate refund email.
    expect((await emailsTo(buyers[0]!.email)).filter((one) => one.subject.startsWith('Refund'))).toHaveLength(0);
    expect((await emailsTo(buyers[3]!.email)).filter((one) => one.subject.includes('cancelled'))).toHaveLength(0);

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.eventId, created.eventId));
    expect(audit.filter((one) => one.action === 'event.cancel')).toMatchObject([
      { actorName: 'Adam Admin', target: 'Jazz night', details: { from: 'published', message: 'The band is ill.' } },
    ]);
  });

  it('resumes after Stripe fails midway: each order is refunded once and each buyer emailed once', async () => {
    const since = new Date();
    const created = await eventOnSale();
    const [seat] = created.ticketTypeIds as [string];
    const orders = [
      await paidOrder(buyers[0]!, created.eventId, seat, 1),
      await paidOrder(buyers[1]!, created.eventId, seat, 1),
      await paidOrder(buyers[2]!, created.eventId, seat, 1),
    ];
    standIn.setDownAfterRefunds(1, 'error');

    await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie);
    await t.settleJobs();

    const sentBefore = (await Promise.all(orders.map(stripeRefundsOf))).flat();
    expect(sentBefore).toHaveLength(1);
    // Recorded, tickets void, money owed pending until Stripe is back.
    const recorded = await t.db.select().from(refund).where(eq(refund.status, 'pending'));
    expect(recorded.filter((one) => orders.includes(one.orderId))).toHaveLength(2);
    for (const orderId of orders) expect(await validTickets(orderId)).toBe(0);

    standIn.setDown(false);
    // The organizer cancels again (or the refunds' own jobs send them a minute later): the rest, once.
    await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie);
    await t.settleJobs();
    await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie);
    await t.settleJobs();

    for (const orderId of orders) {
      expect((await stripeRefundsOf(orderId)).map((one) => one.amount)).toEqual([2500]);
      expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', refundedAmount: 2500 });
    }
    for (const buyer of buyers.slice(0, 3)) {
      const notices = (await emailsTo(buyer.email)).filter(
        (one) => one.createdAt >= since && /cancelled|abgesagt/.test(one.subject),
      );
      expect(notices).toHaveLength(1);
    }
  });

  it('tells a person with several orders once, in their language, of all their orders and of everything refunded', async () => {
    const created = await eventOnSale();
    const [seat, guest] = created.ticketTypeIds as [string, string];
    const petra = await t.signUp('Petra Mehrfach');
    await t.call(setAccountLanguage, { locale: 'de' }, petra.cookie);
    const theirs = [
      await paidOrder(petra, created.eventId, seat, 2),
      await paidOrder(petra, created.eventId, seat, 1),
      (await t.call(createOrder, { eventId: created.eventId, lines: [{ ticketTypeId: guest, quantity: 1 }] }, petra.cookie)).body
        .result.orderId,
    ];
    const other = await paidOrder(buyers[0]!, created.eventId, seat, 1);
    // Their confirmations are out before the event is cancelled.
    await t.settleJobs();
    const since = new Date();

    await t.call(cancelEvent, { eventId: created.eventId, message: 'Die Band ist krank.' }, admin.cookie);
    await t.settleJobs();

    const notices = (await emailsTo(petra.email)).filter(
      (one) => one.createdAt >= since && /cancelled|abgesagt/.test(one.subject),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toBe('Jazz night ist abgesagt');
    expect(notices[0]!.text).toContain('alle 3 Ihrer Bestellungen');
    for (const orderId of theirs) expect(notices[0]!.text).toContain(formatOrderReference(orderId));
    // 2 × 25 € and 1 × 25 €, the free order nothing: 75 € in one sentence.
    expect(notices[0]!.text).toContain('75,00');
    // Each order's timeline says the notice went out.
    for (const orderId of theirs) {
      const sent = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
      const notified = sent.filter((one) => one.kind === 'email_sent' && one.detail.kind === 'event_cancelled');
      expect(notified).toHaveLength(1);
    }
    // Someone else with one order: their own notice, which names no list of orders.
    const toOther = (await emailsTo(buyers[0]!.email)).filter((one) => one.createdAt >= since && /cancelled/.test(one.subject));
    expect(toOther).toHaveLength(1);
    expect(toOther[0]!.text).not.toContain(formatOrderReference(other));
    expect(toOther[0]!.text).toContain('€25.00');
  });

  it('refunds in full a payment that arrives after the event was cancelled, and issues no ticket', async () => {
    const created = await eventOnSale();
    const [seat] = created.ticketTypeIds as [string];
    const orderId = (
      await t.call(createOrder, { eventId: created.eventId, lines: [{ ticketTypeId: seat, quantity: 2 }] }, buyers[0]!.cookie)
    ).body.result.orderId;
    await t.call(startPayment, { orderId }, buyers[0]!.cookie);
    await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie);
    await t.settleJobs();

    standIn.succeed((await orderRow(orderId)).paymentRef!);
    const confirmed = await t.call(confirmPayment, { orderId }, buyers[0]!.cookie);

    expect(confirmed.body.result.status).toBe('cancelled');
    expect(await orderRow(orderId)).toMatchObject({ status: 'cancelled', refundedAmount: 5000 });
    expect((await stripeRefundsOf(orderId)).map((one) => one.amount)).toEqual([5000]);
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, orderId))).toEqual([]);
  });

  it('is refused to staff and for an event that is over; a draft without orders is deleted, one with orders is not', async () => {
    const created = await eventOnSale();
    expect((await t.call(cancelEvent, { eventId: created.eventId }, staff.cookie)).body.error?.status).toBe('permission-denied');
    await t.db.update(event).set({ status: 'ended' }).where(eq(event.id, created.eventId));
    const ended = await t.call(cancelEvent, { eventId: created.eventId }, admin.cookie);
    expect(ended.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'not-cancellable' } });
    expect((await t.call(deleteEvent, { eventId: created.eventId }, admin.cookie)).body.error?.details).toMatchObject({
      reason: 'move-not-allowed',
    });

    const { organizationId } = await createOrgAs(t, owner.cookie, 'Drafts');
    const draft = await createEventAs(t, owner.cookie, organizationId);
    const deleted = await t.call(deleteEvent, { eventId: draft.eventId }, owner.cookie);
    expect(deleted.body.result).toEqual({ organizationId });
    expect(await t.db.select().from(event).where(eq(event.id, draft.eventId))).toEqual([]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.eventId, draft.eventId)).orderBy(asc(auditLog.at));
    expect(audit.map((one) => one.action)).toEqual(['event.create', 'event.delete']);

    // Sold once, the order cancelled, back to draft: its order stays on record, so the event does too.
    const once = await createPublishedEvent(t, owner.cookie, { organizationId, ticketTypes: [{ capacity: 5, price: 900 }] });
    const left = (
      await t.call(
        createOrder,
        { eventId: once.eventId, lines: [{ ticketTypeId: once.ticketTypeIds[0]!, quantity: 1 }] },
        buyers[0]!.cookie,
      )
    ).body.result.orderId;
    await t.call(cancelOrder, { orderId: left }, buyers[0]!.cookie);
    expect((await t.call(moveEvent, { eventId: once.eventId, move: 'unpublish' }, owner.cookie)).body.result).toEqual({
      status: 'draft',
    });
    const refused = await t.call(deleteEvent, { eventId: once.eventId }, owner.cookie);
    expect(refused.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'event-has-orders' } });
  });
});
