import { aggregateAnalyticsJob, analyticsLiveQueries } from './modules/analytics/analytics.api';
import { apiKeysCallables, apiKeysLiveQueries } from './modules/api/api.api';
import { checkinCallables, checkinLiveQueries } from './modules/checkin/checkin.api';
import { codesCallables, codesLiveQueries } from './modules/codes/codes.api';
import { questionsCallables, questionsLiveQueries } from './modules/questions/questions.api';
import { eventEndCallables, eventsCallables, eventsLiveQueries } from './modules/events/events.api';
import { importsCallables } from './modules/imports/imports.api';
import { messagesCallables, messagesJobs, messagesLiveQueries } from './modules/messages/messages.api';
import {
  orderDetailLiveQueries,
  orderSideOfTicketChanges,
  ordersCallables,
  ordersLiveQueries,
  ordersJobs,
} from './modules/orders/orders.api';
import { cancelEventOrdersJob, paymentsCallables, paymentsJobs } from './modules/payments/payments.api';
import { orgsCallables, orgsLiveQueries, sendInvitationJob } from './modules/orgs/orgs.api';
import { deleteFileJob } from './platform/files/uploads';
import {
  ticketHolderCallables,
  ticketsLiveQueries,
  transferCallables,
  resaleCallables,
  transfersLiveQueries,
} from './modules/tickets/tickets.api';
import {
  deliverEndpointWebhooksJob,
  deliverWebhookJob,
  sendDisabledNoticeJob,
  sweepWebhooksJob,
  webhooksCallables,
  webhooksLiveQueries,
} from './modules/webhooks/webhooks.api';
import {
  closeAtStartJob,
  offerFreedPlacesJobDefinition,
  sendWaitlistConfirmationJob,
  waitlistCallables,
  waitlistLiveQueries,
} from './modules/waitlist/waitlist.api';
import { pushPassUpdatesJob, syncGoogleObjectsJob } from './modules/wallet/wallet.api';
import { setAccountLanguageCallable } from './platform/mail/language';
import { sandboxCallables } from './platform/payments/sandbox-provider';

// Every module's callables, background jobs and live queries: the one list app.ts serves and
// worker.ts runs, put together from the modules' surfaces (docs/decisions/0059-module-seams.md).
export const callables = [
  ...orgsCallables,
  ...eventsCallables,
  ...ordersCallables,
  ...paymentsCallables,
  // The lower modules' callables that go on in a higher one's work, handed it here (decision 0059):
  // a cancelled event's orders are ended by the payments module's job, and a buyer's change to a
  // ticket is written on its order's timeline by the orders module.
  ...eventEndCallables(cancelEventOrdersJob),
  ...ticketHolderCallables(orderSideOfTicketChanges),
  ...transferCallables(orderSideOfTicketChanges),
  ...resaleCallables(orderSideOfTicketChanges),
  ...sandboxCallables,
  ...importsCallables,
  ...checkinCallables,
  ...messagesCallables,
  ...codesCallables,
  ...questionsCallables,
  ...webhooksCallables,
  ...waitlistCallables,
  setAccountLanguageCallable,
  ...apiKeysCallables,
];
/** Every background job, run by the web process or by worker processes (worker.ts). */
export const jobDefinitions = [
  ...ordersJobs,
  ...paymentsJobs,
  ...messagesJobs,
  sendInvitationJob,
  deleteFileJob,
  aggregateAnalyticsJob,
  deliverEndpointWebhooksJob,
  deliverWebhookJob,
  sendDisabledNoticeJob,
  sweepWebhooksJob,
  offerFreedPlacesJobDefinition,
  sendWaitlistConfirmationJob,
  closeAtStartJob,
  pushPassUpdatesJob,
  syncGoogleObjectsJob,
];
export const liveQueries = [
  ...orgsLiveQueries,
  ...eventsLiveQueries,
  ...ordersLiveQueries,
  ...orderDetailLiveQueries,
  ...ticketsLiveQueries,
  ...transfersLiveQueries,
  ...checkinLiveQueries,
  ...analyticsLiveQueries,
  ...messagesLiveQueries,
  ...codesLiveQueries,
  ...questionsLiveQueries,
  ...apiKeysLiveQueries,
  ...webhooksLiveQueries,
  ...waitlistLiveQueries,
];
