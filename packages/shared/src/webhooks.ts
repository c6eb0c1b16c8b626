import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';

// An organization's webhooks: endpoints that get what happens to its orders, tickets and events,
// signed in the Standard Webhooks format and retried for three days (decision 0063).

export const webhookEventTypes = [
  'order.created',
  'order.paid',
  'order.refunded',
  'order.cancelled',
  'ticket.checked_in',
  'ticket.holder_changed',
  'ticket.transferred',
  'ticket.resold',
  'event.updated',
  'event.cancelled',
  'waitlist.offered',
] as const;
export const WebhookEventType = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** What a test ping is called: sent to one endpoint on demand, whatever it subscribed to. */
export const webhookPingType = 'webhook.ping';

export const webhookLimits = { endpointsPerOrganization: 20, urlLength: 2_000 } as const;

export const WebhookUrl = z.url({ protocol: /^https?$/, error: 'An http:// or https:// address' }).max(webhookLimits.urlLength);

const EventTypes = z
  .array(WebhookEventType)
  .min(1, 'Choose at least one event')
  .max(webhookEventTypes.length)
  .transform((types) => [...new Set(types)]);

export const CreateWebhookInput = z.strictObject({ organizationId: Id, url: WebhookUrl, eventTypes: EventTypes });
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;
/** The secret is shown once, here: the receiver checks signatures with it (`whsec_…`). */
export const createWebhook = defineCallableContract(
  'webhooks.create',
  CreateWebhookInput,
  z.object({ endpointId: z.string(), secret: z.string() }),
);

/** Changes what is given; `enabled: true` also sends what waited while it was disabled. */
export const updateWebhook = defineCallableContract(
  'webhooks.update',
  z.strictObject({
    endpointId: Id,
    url: WebhookUrl.optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional(),
  }),
  z.object({}),
);
export const deleteWebhook = defineCallableContract('webhooks.delete', z.strictObject({ endpointId: Id }), z.object({}));
/** A new secret; the one before still signs beside it for a day, so receivers can switch without losing any. */
export const rotateWebhookSecret = defineCallableContract(
  'webhooks.rotateSecret',
  z.strictObject({ endpointId: Id }),
  z.object({ secret: z.string(), previousValidUntil: z.string() }),
);
/** Sends one delivery again now (same `webhook-id`), whatever became of it. */
export const resendWebhook = defineCallableContract('webhooks.sendAgain', z.strictObject({ deliveryId: Id }), z.object({}));
/** Sends a `webhook.ping` to one endpoint. */
export const pingWebhook = defineCallableContract(
  'webhooks.ping',
  z.strictObject({ endpointId: Id }),
  z.object({ deliveryId: z.string() }),
);

/** Why an endpoint gets nothing: an admin turned it off, it answered `410 Gone`, or it failed for three days. */
export const WebhookDisabledReason = z.enum(['manual', 'gone', 'failing']);

export const WebhookEndpointRow = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(WebhookEventType),
  enabled: z.boolean(),
  disabledReason: WebhookDisabledReason.nullable(),
  /** Since when every delivery has failed; null while it answers. */
  failingSince: z.string().nullable(),
  /** Until when the secret before the last rotation still signs. */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpointRow = z.infer<typeof WebhookEndpointRow>;
export const webhookEndpoints = defineLiveQueryContract(
  'webhooks.endpoints',
  z.strictObject({ organizationId: Id }),
  WebhookEndpointRow,
);

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);
export const WebhookDeliveryRow = z.object({
  id: z.string(),
  /** The `webhook-id` the receiver sees, the same on every try. */
  messageId: z.string(),
  type: z.string(),
  objectId: z.string(),
  status: WebhookDeliveryStatus,
  attempts: z.number(),
  /** The last try's HTTP status; null before one, or when no answer came (`responseExcerpt` says why). */
  responseStatus: z.number().nullable(),
  responseExcerpt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryRow = z.infer<typeof WebhookDeliveryRow>;
/** An endpoint's latest deliveries, newest first. */
export const webhookDeliveries = defineLiveQueryContract(
  'webhooks.deliveries',
  z.strictObject({ endpointId: Id }),
  WebhookDeliveryRow,
);

/** Why a webhook's address is refused: the `reason` in an `invalid-argument` answer's details. */
export const webhookFailures = [
  /** It is on a private, loopback or link-local network (or resolves to one). */
  z.object({ reason: z.literal('private-address') }),
  /** Its host name does not resolve. */
  z.object({ reason: z.literal('unresolvable') }),
  z.object({ reason: z.literal('too-many-endpoints'), max: z.number() }),
] as const;
