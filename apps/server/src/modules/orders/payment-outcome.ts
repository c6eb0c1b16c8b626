import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { Mailer } from '../../platform/mail/mailer';
import type { PaymentIntentState, PaymentProvider } from '../../platform/payments/payment-provider';
import { orderTopics, settlePayment, type Settlement } from './checkout';

export interface PaymentOutcomeDeps {
  db: Db;
  payments: PaymentProvider;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  publish(...topics: string[]): void;
}

/**
 * Settles an order from its payment (the return page or the webhook, whichever comes first) and
 * tells everyone watching. The buyer's email goes out only from the call that made the change,
 * after it committed; a failed email is logged and never undoes the payment.
 */
export async function settleAndAnnounce(
  deps: PaymentOutcomeDeps,
  orderId: string,
  payment: PaymentIntentState,
): Promise<Settlement> {
  const settlement = await settlePayment(deps.db, deps.payments, orderId, payment);
  deps.publish(...orderTopics(settlement.order));
  return settlement;
}
