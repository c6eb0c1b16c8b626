import { confirmPayment } from '@admit/shared/orders';
import { defineCallable } from '../../platform/http/callable';
import { ownOrder } from '../orders/orders.api';
import { settleAndAnnounce } from './payment-outcome';

// The buyer's page comes back from the payment step: the payment is read back from the provider
// and the order settled (the provider's webhook may have done it first; settling twice is a no-op).
export const confirmPaymentCallable = defineCallable(confirmPayment, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await ownOrder(ctx.db, input.orderId, ctx.user.id);
    if (!found.paymentRef) return { status: found.status, paymentStatus: null };
    // The browser's word is not enough: the payment is read back from the provider.
    const payment = await ctx.payments.retrievePaymentIntent(found.paymentRef);
    const settled = await settleAndAnnounce(ctx, found.id, payment);
    return { status: settled.order.status, paymentStatus: payment.status };
  },
});
