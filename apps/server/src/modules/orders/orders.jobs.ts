import { expireHoldJob } from './holds';
import {
  sendConfirmationJob,
  sendEventCancelledNoticeJob,
  sendGuestLinkJob,
  sendLatePaymentRefundNoticeJob,
  sendRefundNoticeJob,
} from './order-emails';
import { sendTransferAcceptedJob, sendTransferOfferJob } from './transfer-emails';
import { sendWaitlistOfferJob } from './waitlist-offers';

// The orders module's background work, each defined next to what it does. Every job is enqueued in
// the transaction of the change that causes it and is idempotent: an email carries a key the
// mailer sends once, a hold is released by a conditional update. The payments module's jobs
// (refunds, a cancelled event's orders) are in payments.jobs.ts.
export const ordersJobs = [
  sendConfirmationJob,
  sendGuestLinkJob,
  sendRefundNoticeJob,
  sendLatePaymentRefundNoticeJob,
  expireHoldJob,
  sendEventCancelledNoticeJob,
  sendWaitlistOfferJob,
  sendTransferOfferJob,
  sendTransferAcceptedJob,
];
