// The orders module's surface: what other modules and app.ts may call. Everything else in this
// folder is its own.
export { createGuestOrders, type Guest } from './guest-orders';
export { releaseExpiredHolds, releaseHold } from './holds';
export { buyersOrder, claimGuestOrders, guestOrderUrl, orderAccessToken, tokenOpens } from './order-access';
export { recordActivity, recordActivityOnce } from './order-activity';
export { orderSideOfTicketChanges } from './ticket-changes';
export { setOrderMoney } from './order-money';
export { answersOf, codeUsesOf, placesOf, type Order } from './order-places';
export { countOrderAttempt, requireWithinBuyerLimits } from './order-quotas';
export {
  enqueueConfirmation,
  sendConfirmationJob,
  sendEventCancelledNoticeJob,
  sendLatePaymentRefundNoticeJob,
  sendOrderConfirmation,
  sendRefundNoticeJob,
  type OrderEmailDeps,
} from './order-emails';
export { orderDetailLiveQueries } from './order-detail.live';
export { ordersCallables } from './orders.functions';
export { ordersLiveQueries } from './orders.live';
export { cancellationRefundKey } from './refund-keys';
export { eventOrdersTopic, orderTopic, orderTopics } from './topics';
export { ordersJobs } from './orders.jobs';
export { emitOrderWebhook, orderResource, orderResources } from './order-resource';
export { confirmFreeHold } from './confirm-guest-order';
export { holdForWaitlist, type WaitlistHold } from './waitlist-offers';
export { composeWaitlistConfirmation } from './compose-order-email';
export { completeHold, holdResale, issueOrderTickets, resaleQuantityOf, sellersTopics, type ResaleHold } from './resale-orders';
