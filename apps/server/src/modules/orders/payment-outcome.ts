import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { Mailer } from '../../platform/mail/mailer';
import type { PaymentIntentState, PaymentProvider } from '../../platform/payments/payment-provider';
import { orderTopics, settlePayment, type Settlement } from './checkout';
import { sendLatePaymentRefundNotice, sendOrderConfirmation } from './order-emails';

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
  // Only `paid` and `refunded-late` are changes this call made; every other outcome was settled
  // before (by the webhook or the return page) and has been told already.
  if (settlement.outcome === 'paid') await sendQuietly(deps, 'confirmation', () => sendOrderConfirmation(deps, orderId));
  if (settlement.outcome === 'refunded-late')
    await sendQuietly(deps, 'late payment refund', () => sendLatePaymentRefundNotice(deps, orderId));
  return settlement;
}

/** An email that cannot be sent is logged; the payment it reports stands. */
export async function sendQuietly(deps: Pick<PaymentOutcomeDeps, 'log'>, what: string, send: () => Promise<unknown>) {
  try {
    await send();
  } catch (error) {
    deps.log.error({ err: error }, `sending the ${what} email failed`);
  }
}
