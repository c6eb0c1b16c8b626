// The webhooks module's surface: what app.ts composes and other modules call. It depends on
// platform alone (every module that reports a change calls into it), so there is no cycle.
export { deliverEndpointWebhooksJob, deliverWebhookJob, sweepWebhooksJob } from './deliver';
export { sendDisabledNoticeJob } from './disabled-notice';
export { emitWebhook, emitWebhooksInStatement, type WebhookEvent } from './emit';
export { webhooksCallables } from './webhooks.functions';
export { webhooksLiveQueries } from './webhooks.live';
