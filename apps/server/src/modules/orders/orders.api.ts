// The orders module's surface: what other modules and app.ts may call. Everything else in this
// folder is its own.
export { eventEndCallables } from './cancel-event';
export { changeAnswersCallable, setTicketHolderCallable } from './ticket-holders';
export { consumeQuota, consumeQuotas, quotaKey, quotaLeft, type Quota } from './call-quota';
export { codeAppliesTo, discountOf, requireCode, requireWorksNow, usesOf } from './code-uses';
export { createGuestOrders, type Guest } from './guest-orders';
export { releaseExpiredHolds } from './holds';
export { claimGuestOrders, guestOrderUrl, tokenOpens } from './order-access';
export { sendOrderConfirmation, type OrderEmailDeps } from './order-emails';
export { orderDetailLiveQueries } from './order-detail.live';
export { ordersCallables } from './orders.functions';
export { ordersLiveQueries } from './orders.live';
export { refundsCallables } from './refunds.functions';
export { registerStripeWebhook } from './stripe-webhook';
export { eventOrdersTopic, orderTopic, orderTopics } from './topics';
export { ordersJobs } from './orders.jobs';
