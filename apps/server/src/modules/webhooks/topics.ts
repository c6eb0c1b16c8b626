/** An organization's endpoints changed. */
export const orgWebhooksTopic = (organizationId: string) => `webhooks:org:${organizationId}`;
/** An endpoint's deliveries changed. */
export const webhookDeliveriesTopic = (endpointId: string) => `webhooks:endpoint:${endpointId}`;
