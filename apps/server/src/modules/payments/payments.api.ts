// The payments module's surface: what app.ts composes. Settling a payment, refunds (an admin's, a
// late payment's, a cancelled event's), reconciling with the provider and the provider's webhook
// live here, above orders (checkout, holds, order emails), which they change through its front
// door. Everything else in this folder is its own.
import { confirmPaymentCallable } from './payments.functions';
import { refundOrderCallable } from './refunds.functions';

export { cancelEventOrdersJob } from './cancel-event-orders';
export { paymentsJobs } from './payments.jobs';
export { registerStripeWebhook } from './stripe-webhook';

export const paymentsCallables = [confirmPaymentCallable, refundOrderCallable];
