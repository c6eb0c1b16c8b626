import { cancelEvent } from '@admit/shared/event-changes';
import { confirmPayment, createOrder, formatOrderReference, startPayment } from '@admit/shared/orders';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { startProcess, type ManagedProcess } from '../../../../../deploy/processes';
import { outboxMessage } from '../../platform/mail/schema';
import { createStripeProvider } from '../../platform/payments/stripe-provider';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { startStripeStandIn } from '../../testing/stripe-stand-in';
import { createTestApp } from '../../testing/test-app';
import { order } from '../orders/schema';

// A worker process killed in the middle of a cancelled event's refunds, and started again: the
// refunds go on within seconds of the restart, not after the try's five-minute limit, and still
// each order is refunded once (Stripe's side, on the local stand-in) and each person told once.
// PostgreSQL only: the embedded database belongs to one process.

const keys = { secretKey: 'sk_test_stand_in', publishableKey: 'pk_test_stand_in', webhookSecret: 'whsec_stand_in' };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describe('a worker killed while it refunds a cancelled event', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'goes on within 30 s of its restart: every order refunded once, every person told once',
    async () => {
      const standIn = await startStripeStandIn();
      // A database of its own whose jobs only the worker processes run.
      const t = await createTestApp({
        env: { JOB_WORKERS: 'off' },
        payments: createStripeProvider({ ...keys, apiBase: standIn.apiBase }),
      });
      const workers: ManagedProcess[] = [];
      try {
        const organizer = await t.signUp('Olga Owner');
        const { eventId, ticketTypeIds } = await createPublishedEvent(t, organizer.cookie, {
          capacity: 500,
          ticketTypes: [{ name: 'Seat', capacity: 500, price: 2500 }],
        });
        // 50 people with three orders each: 150 paid orders.
        const buyers = await Promise.all(Array.from({ length: 50 }, (_, index) => t.signUp(`Buyer ${index + 1}`)));
        const paidOrders: string[] = [];
        for (let round = 0; round < 3; round++) {
          for (const buyer of buyers) {
            const ordered = await t.call(
              createOrder,
              { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] },
              buyer.cookie,
            );
            const orderId = ordered.body.result.orderId;
            await t.call(startPayment, { orderId }, buyer.cookie);
            const [row] = await t.db.select().from(order).where(eq(order.id, orderId));
            standIn.succeed(row!.paymentRef!);
            expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
            paidOrders.push(orderId);
          }
        }
        // Their confirmations are another story (and would only slow the worker down here).
        await t.database.execute(`delete from pgboss.job where name = 'orders.sendConfirmation'`, []);

        const cancelled = await t.call(cancelEvent, { eventId, message: 'The roof leaks.' }, organizer.cookie);
        expect(cancelled.body.result).toEqual({ status: 'cancelled', ordersToRefund: 150 });

        const env = {
          ...process.env,
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          DATABASE_URL: t.database.url!,
          AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
          PUBLIC_URL: 'http://localhost:3000',
          DATA_DIR: t.config.DATA_DIR,
          STRIPE_SECRET_KEY: keys.secretKey,
          STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
          STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
          STRIPE_API_URL: `http://${standIn.apiBase.host}:${standIn.apiBase.port}`,
        };
        const startWorker = async () => {
          const worker = await startProcess({
            name: 'worker',
            command: process.execPath,
            args: ['scripts/worker.mjs'],
            env,
            cwd: root,
            readyWhen: /worker running/,
            timeoutMs: 60_000,
          });
          workers.push(worker);
          return worker;
        };
        const refundsAtStripe = () => standIn.refunds.size;

        const first = await startWorker();
        await expect.poll(refundsAtStripe, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(30);
        await first.stop('SIGKILL');
        const beforeRestart = refundsAtStripe();
        expect(beforeRestart).toBeLessThan(150);

        await startWorker();
        const restartedAt = performance.now();
        const notices = () =>
          t.db
            .select({ to: outboxMessage.to, text: outboxMessage.text })
            .from(outboxMessage)
            .where(and(eq(outboxMessage.channel, 'email'), like(outboxMessage.subject, '% is cancelled')));
        // When the refunds moved again, were all made, and all people were told (ms after the restart).
        const seen: { moved?: number; refunded?: number; told?: number } = {};
        await expect
          .poll(
            async () => {
              const now = Math.round(performance.now() - restartedAt);
              if (refundsAtStripe() > beforeRestart + 1) seen.moved ??= now;
              if (refundsAtStripe() === 150) seen.refunded ??= now;
              if ((await notices()).length >= buyers.length) seen.told ??= now;
              return seen.refunded !== undefined && seen.told !== undefined;
            },
            { timeout: 120_000, interval: 100 },
          )
          .toBe(true);
        const doneAfterMs = Math.max(seen.refunded!, seen.told!);
        expect(doneAfterMs, JSON.stringify(seen)).toBeLessThan(30_000);

        // Stripe's side: one refund of the whole amount for every payment, none twice.
        const payments = await t.db
          .select({ id: order.id, email: order.email, paymentRef: order.paymentRef, total: order.total, status: order.status })
          .from(order);
        expect(payments).toHaveLength(150);
        for (const one of payments) {
          const refunds = [...standIn.refunds.values()].filter((refund) => refund.payment_intent === one.paymentRef);
          expect(refunds.map((refund) => refund.amount)).toEqual([one.total]);
          expect(one.status).toBe('refunded');
        }
        // One notice per person, naming their three orders and their whole refund.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const told = await notices();
        expect(told.map((one) => one.to).sort()).toEqual(buyers.map((buyer) => buyer.email).sort());
        for (const one of told) {
          expect(one.text).toContain('all 3 of your orders');
          for (const theirs of payments.filter((payment) => payment.email === one.to))
            expect(one.text).toContain(formatOrderReference(theirs.id));
        }
        expect(await dataInvariantViolations(t.db)).toEqual([]);
        console.info(
          `cancel-event crash: ${beforeRestart} refunds before the kill; after the restart (ms): ${JSON.stringify(seen)}`,
        );
      } finally {
        for (const worker of workers) if (worker.running()) await worker.stop('SIGTERM');
        await t.close();
        await standIn.close();
      }
    },
    300_000,
  );
});
