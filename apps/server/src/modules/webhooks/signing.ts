import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The three headers of a Standard Webhooks request, signed by the `standardwebhooks` package with
 * every secret given (during a rotation's overlap, the new and the one before: the receiver accepts
 * either signature, separated by a space).
 */
export function signedHeaders(input: { messageId: string; at: Date; body: string; secrets: readonly string[] }) {
  const signatures = input.secrets.map((secret) => new Webhook(secret).sign(input.messageId, input.at, input.body));
  return {
    'webhook-id': input.messageId,
    'webhook-timestamp': String(Math.floor(input.at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
