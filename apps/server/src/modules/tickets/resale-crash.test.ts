import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { configureTransfers, resellTicket } from '@admit/shared/transfers';
import { configureWaitlist, joinWaitlist } from '@admit/shared/waitlist';
import { eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ManagedProcess } from '../../../../../deploy/processes';
import { outboxMessage } from '../../platform/mail/schema';
import { createStripeProvider } from '../../platform/payments/stripe-provider';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { startStripeStandIn } from '../../testing/stripe-stand-in';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startWorkerProcess } from '../../testing/worker-process';
import { order } from '../orders/schema';
import { waitlistEntry } from '../waitlist/schema';
import { ticket, ticketResale } from './schema';

// Resale (decision 0066) with its worker killed twice: while it offers the tickets offered back to
// the waiting list, and while it refunds their sellers. Every ticket is offered once and sold once,
// never valid twice, and every seller is refunded once (Stripe's side, on the local stand-in), each
// refund made by the sale that owes it. PostgreSQL only: the embedded database belongs to one process.

const keys = { secretKey: 'sk_test_stand_in', publishableKey: 'pk_test_stand_in', webhookSecret: 'whsec_stand_in' };
const sellers = 12;

async function pay(t: TestApp, standIn: Awaited<ReturnType<typeof startStripeStandIn>>, cookie: string, orderId: string) {
  await t.call(startPayment, { orderId }, cookie);
  const [row] = await t.db.select().from(order).where(eq(order.id, orderId));
  standIn.succeed(row!.paymentRef!);
  return (await t.call(confirmPayment, { orderId }, cookie)).body.result?.status as string;
}

describe('a worker killed while it resells tickets', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'offers each ticket once, never leaves two valid, and refunds each seller once',
    async () => {
      const standIn = await startStripeStandIn();
      const t = await createTestApp({
        env: { JOB_WORKERS: 'off', ORDER_ATTEMPTS_PER_ADDRESS: '10000' },
        payments: createStripeProvider({ ...keys, apiBase: standIn.apiBase }),
      });
      const workers: ManagedProcess[] = [];
      try {
        const owner = await t.signUp('Olga Owner');
        const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
          capacity: sellers,
          ticketTypes: [{ name: 'Seat', capacity: sellers, price: 2500 }],
        });
        const ticketTypeId = ticketTypeIds[0]!;
        await t.call(configureTransfers, { eventId, enabled: true, resaleEnabled: true, resaleFee: 100 }, owner.cookie);
        await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
        const people = await Promise.all(Array.from({ length: sellers }, (_, index) => t.signUp(`Seller ${index + 1}`)));
        const sold: string[] = [];
        for (const person of people) {
          const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, person.cookie);
          expect(await pay(t, standIn, person.cookie, placed.body.result.orderId)).toBe('paid');
          const [one] = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));
          sold.push(one!.id);
        }
        const waiting = [];
        for (let index = 0; index < sellers + 3; index++) {
          const person = await t.signUp(`Waiting ${String(index).padStart(2, '0')}`);
          expect((await t.call(joinWaitlist, { eventId, ticketTypeId, quantity: 1 }, person.cookie)).status).toBe(200);
          waiting.push(person);
        }
        // Every seller offers theirs back while no worker runs: the job that offers them waits.
        for (const [index, ticketId] of sold.entries())
          expect((await t.call(resellTicket, { ticketId, fee: 100 }, people[index]!.cookie)).status).toBe(200);

        const startWorker = async () => {
          const worker = await startWorkerProcess(t, {
            STRIPE_SECRET_KEY: keys.secretKey,
            STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
            STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
            STRIPE_API_URL: `http://${standIn.apiBase.host}:${standIn.apiBase.port}`,
          });
          workers.push(worker);
          return worker;
        };

        // Killed as soon as it runs, then started again: each ticket is offered once, in turn.
        await (await startWorker()).stop('SIGKILL');
        let worker = await startWorker();
        const offered = async () =>
          t.db.select().from(waitlistEntry).where(eq(waitlistEntry.status, 'offered')).orderBy(waitlistEntry.joinedAt);
        await expect.poll(async () => (await offered()).length, { timeout: 60_000, interval: 20 }).toBe(sellers);
        await worker.stop('SIGKILL');

        // The people offered them pay (the web process settles each sale, in one transaction).
        const offers = await offered();
        expect(offers.map((entry) => entry.personId)).toEqual(waiting.slice(0, sellers).map((person) => person.user.id));
        for (const entry of offers) {
          const person = waiting.find((one) => one.user.id === entry.personId)!;
          expect(await pay(t, standIn, person.cookie, entry.offerOrderId!)).toBe('paid');
        }
        // The worker that sends the sellers' refunds is killed midway, and started again.
        // Stripe answers four of them, then the connection drops: the worker is killed mid-way.
        const refundsAtStripe = () => standIn.refunds.size;
        standIn.setDownAfterRefunds(4);
        worker = await startWorker();
        await expect.poll(refundsAtStripe, { timeout: 60_000, interval: 5 }).toBe(4);
        await worker.stop('SIGKILL');
        standIn.setDown(false);
        await startWorker();
        await expect.poll(refundsAtStripe, { timeout: 60_000, interval: 100 }).toBe(sellers);

        // Each seller: one refund at Stripe of the price less the fee, their ticket void and replaced.
        const sellerOrders = await t.db
          .select()
          .from(order)
          .where(
            inArray(
              order.buyerId,
              people.map((person) => person.user.id),
            ),
          );
        for (const one of sellerOrders) {
          const refunds = [...standIn.refunds.values()].filter((refund) => refund.payment_intent === one.paymentRef);
          expect(refunds.map((refund) => refund.amount)).toEqual([2400]);
          expect(one).toMatchObject({ status: 'refunded', refundedAmount: 2400 });
        }
        const listings = await t.db.select().from(ticketResale).where(eq(ticketResale.eventId, eventId));
        expect(listings.map((listing) => listing.status)).toEqual(Array(sellers).fill('sold'));
        const valid = await t.db.select().from(ticket).where(eq(ticket.eventId, eventId));
        expect(valid.filter((one) => one.status === 'valid')).toHaveLength(sellers);
        // Each seller told once of their refund.
        await expect
          .poll(async () => (await t.db.select().from(outboxMessage).where(like(outboxMessage.text, '%24.00%'))).length, {
            timeout: 30_000,
            interval: 200,
          })
          .toBeGreaterThanOrEqual(sellers);
        const notices = await t.db
          .select({ to: outboxMessage.to })
          .from(outboxMessage)
          .where(like(outboxMessage.text, '%24.00%'));
        expect(new Set(notices.map((one) => one.to)).size).toBe(notices.length);
        expect(await dataInvariantViolations(t.db)).toEqual([]);
      } finally {
        for (const one of workers) if (one.running()) await one.stop('SIGTERM');
        await t.close();
        await standIn.close();
      }
    },
    240_000,
  );
});
