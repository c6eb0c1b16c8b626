import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import type { PaymentIntentState, PaymentProvider } from '../../platform/payments/payment-provider';
import { orderTopics, sellersTopics, recordActivityOnce } from '../orders/orders.api';
import { settlePayment, type Settlement } from './settle-payment';

export interface PaymentOutcomeDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobSender;
  log: FastifyBaseLogger;
  publish(...topics: string[]): void;
}

/**
 * Settles an order from its payment (the return page or the webhook, whichever comes first) and
 * tells everyone watching. The buyer's email is a job enqueued by the settlement that made the
 * change, so it goes out once, after the commit, and again if sending fails.
 */
export async function settleAndAnnounce(
  deps: PaymentOutcomeDeps,
  orderId: string,
  payment: PaymentIntentState,
): Promise<Settlement> {
  const settlement = await settlePayment(deps.db, deps.payments, deps.jobs, orderId, payment);
  // A declined try the provider reports only in the payment's state: one timeline line per try.
  if (payment.lastDecline)
    await recordActivityOnce(deps.db, `payment-failed:${payment.ref}:${payment.lastDecline.attempt}`, orderId, 'payment_failed', {
      code: payment.lastDecline.code,
      message: null,
    });
  deps.publish(...orderTopics(settlement.order), ...(settlement.outcome === 'paid' ? sellersTopics(settlement.sold) : []));
  return settlement;
}
