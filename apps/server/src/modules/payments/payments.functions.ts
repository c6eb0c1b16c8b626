import { confirmPayment } from '@admit/shared/orders';
import { defineCallable } from '../../platform/http/callable';
import { buyersOrder } from '../orders/orders.api';
import { settleAndAnnounce } from './payment-outcome';

// The buyer's page comes back from the payment step: the payment is read back from the provider
// and the order settled (the provider's webhook may have done it first; settling twice is a no-op).
// A guest's page sends the order's token instead of a session (decision 0060).
export const confirmPaymentCallable = defineCallable(confirmPayment, {
  auth: 'optional',
  async handler(input, ctx) {
    const found = await buyersOrder(ctx, input.orderId, input.accessToken);
    if (!found.paymentRef) return { status: found.status, paymentStatus: null };
    // The browser's word is not enough: the payment is read back from the provider.
    const payment = await ctx.payments.retrievePaymentIntent(found.paymentRef);
    const settled = await settleAndAnnounce(ctx, found.id, payment);
    return { status: settled.order.status, paymentStatus: payment.status };
  },
});
