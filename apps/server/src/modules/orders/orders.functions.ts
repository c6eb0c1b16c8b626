import { localizeEvent } from '@admit/shared/event-content';
import { isLocale } from '@admit/shared/locales';
import {
  cancelOrder,
  confirmGuestOrder as confirmGuestOrderContract,
  createOrder as createOrderContract,
  startPayment,
} from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import { confirmGuestOrder } from './confirm-guest-order';
import { createOrder } from './create-order';
import { releaseHold } from './holds';
import { buyersOrder } from './order-access';
import { recordActivity } from './order-activity';
import { order } from './schema';
import { orderTopics } from './topics';

// Without a session: a guest orders with `guest` (else `unauthenticated`), and acts on their order
// with the token that opens it (order-access.ts, decision 0060).
export const createOrderCallable = defineCallable(createOrderContract, {
  auth: 'optional',
  handler: (input, ctx) => createOrder({ ctx, input }),
});

export const startPaymentCallable = defineCallable(startPayment, {
  auth: 'optional',
  async handler(input, ctx) {
    let found = await buyersOrder(ctx, input.orderId, input.accessToken);
    if (found.status === 'pending' && found.holdExpiresAt && found.holdExpiresAt <= new Date()) {
      const released = await releaseHold(ctx.db, found.id, 'expired', { onlyIfDue: true });
      if (released) ctx.publish(...orderTopics(released));
      found = released ?? found;
    }
    if (found.status !== 'pending')
      throw new CallableError('failed-precondition', 'This order cannot be paid', {
        reason: 'not-pending',
        status: found.status,
      });
    const [shownEvent] = await ctx.db
      .select({
        title: event.title,
        description: event.description,
        venue: event.venue,
        contentLocale: event.contentLocale,
        translations: event.translations,
      })
      .from(event)
      .where(eq(event.id, found.eventId));
    // The provider shows it to the buyer: in the order's language when the event has it.
    const title = shownEvent ? localizeEvent(shownEvent, isLocale(found.locale) ? found.locale : ctx.locale).title : '';
    // Unreachable provider: `unavailable`, and the hold stays for a retry.
    const intent = await ctx.payments.createPaymentIntent({
      orderId: found.id,
      amount: found.total,
      currency: found.currency.toLowerCase(),
      locale: found.locale ?? ctx.locale,
      email: found.email,
      description: title,
    });
    await ctx.db.transaction(async (tx) => {
      await tx.update(order).set({ paymentProvider: ctx.payments.kind, paymentRef: intent.ref }).where(eq(order.id, found.id));
      // Once per payment, not per visit to the payment step.
      if (found.paymentRef !== intent.ref)
        await recordActivity(tx, found.id, 'payment_started', { provider: ctx.payments.kind, paymentRef: intent.ref });
    });
    return {
      provider: ctx.payments.kind,
      clientSecret: intent.clientSecret,
      publishableKey: ctx.payments.publishableKey,
      amount: found.total,
      currency: found.currency,
    };
  },
});

export const cancelOrderCallable = defineCallable(cancelOrder, {
  auth: 'optional',
  async handler(input, ctx) {
    const found = await buyersOrder(ctx, input.orderId, input.accessToken);
    const released = await releaseHold(ctx.db, found.id, 'cancelled');
    if (!released) return { status: found.status };
    ctx.publish(...orderTopics(released));
    return { status: released.status };
  },
});

/** The link in a guest's email was opened: their held free places become tickets. The token is the capability. */
export const confirmGuestOrderCallable = defineCallable(confirmGuestOrderContract, {
  auth: 'optional',
  handler: (input, ctx) => confirmGuestOrder(ctx, input),
});

// Confirming a payment (orders.confirmPayment) is the payments module's: it settles the order.
export const ordersCallables = [createOrderCallable, startPaymentCallable, cancelOrderCallable, confirmGuestOrderCallable];
