import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { sendError } from '../../platform/http/send-error';
import { PaymentProviderUnavailable } from '../../platform/payments/payment-provider';
import { paymentEvent } from '../../platform/payments/schema';
import type { StripeProvider } from '../../platform/payments/stripe-provider';
import { recordActivity } from '../orders/orders.api';
import { settleAndAnnounce, type PaymentOutcomeDeps } from './payment-outcome';
import { reconcileRefunds } from './reconcile-refunds';
import { order } from '../orders/schema';

/** Events about a payment: the intent is read again from Stripe and the order settled from that. */
const paymentIntentEvents = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.canceled',
  'payment_intent.requires_action',
]);

/**
 * `POST /webhooks/stripe`: Stripe tells us a payment or refund changed. The raw body is checked
 * against the `Stripe-Signature` header (400 and nothing changed when it does not verify). Nothing in
 * the body is trusted beyond the ids it names: the PaymentIntent is read again from Stripe, so events
 * can arrive in any order, late, or twice. Each event id is stored once it has been applied; a
 * redelivery of a stored event changes nothing. A failure answers 500, and Stripe delivers again.
 */
export async function registerStripeWebhook(
  app: FastifyInstance,
  deps: Omit<PaymentOutcomeDeps, 'log' | 'publish'> & {
    publish(topics: string[]): void;
  },
) {
  const payments = deps.payments as Partial<StripeProvider>;
  await app.register(async (scope) => {
    // The signature covers the exact bytes Stripe sent: keep them, do not parse JSON first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));

    scope.post('/webhooks/stripe', async (request, reply) => {
      if (!payments.verifyWebhook) return sendError(reply, 'not-found', 'Not found');
      let event: Stripe.Event;
      try {
        const signature = request.headers['stripe-signature'];
        event = payments.verifyWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        request.log.warn({ err: error }, 'stripe webhook: signature did not verify');
        return sendError(reply, 'invalid-argument', 'The signature does not verify');
      }

      const [seen] = await deps.db.select({ id: paymentEvent.id }).from(paymentEvent).where(eq(paymentEvent.id, event.id));
      if (seen) return { received: true, duplicate: true };

      const outcome = { ...deps, log: request.log, publish: (...topics: string[]) => deps.publish(topics) };
      let orderId: string | null;
      try {
        orderId = await applyEvent(outcome, event);
      } catch (error) {
        if (!(error instanceof PaymentProviderUnavailable)) throw error;
        request.log.warn({ err: error }, 'stripe webhook: Stripe unavailable, the event will come again');
        return sendError(reply, 'unavailable', 'Stripe is unavailable, deliver again');
      }
      // Stored after it was applied: a crash in between means Stripe delivers again, and applying
      // twice is harmless (settlement and reconciliation read the state, they do not add to it).
      await deps.db.insert(paymentEvent).values({ id: event.id, type: event.type, orderId }).onConflictDoNothing();
      return { received: true };
    });
  });
}

/** Applies one verified event; returns the order it concerned, if any. */
async function applyEvent(deps: PaymentOutcomeDeps, event: Stripe.Event): Promise<string | null> {
  const intentId = paymentIntentOf(event);
  if (!intentId) return null;
  const [found] = await deps.db.select({ id: order.id }).from(order).where(eq(order.paymentRef, intentId));
  if (!found) {
    // Not one of ours (another integration on the same Stripe account), or our order was deleted.
    deps.log.info({ type: event.type, intentId }, 'stripe webhook: no order for this payment');
    return null;
  }
  await recordActivity(deps.db, found.id, 'webhook', { type: event.type, eventId: event.id });

  // Every event first brings the order up to the payment's real state, so a refund event that
  // arrives before the payment's own event still finds a paid order.
  const payment = await deps.payments.retrievePaymentIntent(intentId);
  if (payment.orderId && payment.orderId !== found.id) {
    deps.log.warn({ intentId, orderId: found.id, metadataOrderId: payment.orderId }, 'stripe webhook: order id mismatch');
    return found.id;
  }
  await settleAndAnnounce(deps, found.id, payment);
  if (event.type === 'payment_intent.payment_failed') {
    const failure = (event.data.object as Stripe.PaymentIntent).last_payment_error;
    await recordActivity(deps.db, found.id, 'payment_failed', { code: failure?.code ?? null, message: failure?.message ?? null });
  }
  if (!paymentIntentEvents.has(event.type)) {
    // Refunds made in Stripe's dashboard, or the state of ours: read them all from Stripe again.
    const reconciled = await reconcileRefunds(deps.db, deps.payments, intentId);
    if (reconciled?.changed) deps.publish(...reconciled.topics);
  }
  return found.id;
}

/** The PaymentIntent an event is about: the intent itself, or the intent of a charge or refund. */
function paymentIntentOf(event: Stripe.Event): string | null {
  if (paymentIntentEvents.has(event.type)) return (event.data.object as Stripe.PaymentIntent).id;
  if (event.type === 'charge.refunded' || event.type.startsWith('refund.') || event.type.startsWith('charge.refund.')) {
    const object = event.data.object as { payment_intent?: string | { id: string } | null };
    const intent = object.payment_intent;
    return typeof intent === 'string' ? intent : (intent?.id ?? null);
  }
  return null;
}
