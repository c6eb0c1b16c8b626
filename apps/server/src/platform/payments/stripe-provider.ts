import Stripe from 'stripe';
import {
  PaymentProviderUnavailable,
  RefundRefused,
  type PaymentIntentState,
  type PaymentProvider,
  type PaymentStatus,
  type RefundResult,
} from './payment-provider';

/**
 * The API version our calls and the SDK's types are written against. Pinned (not the account's
 * default) so a change in the Stripe dashboard cannot change what we read; upgrading the SDK makes
 * this a type error until it is moved on deliberately.
 */
const apiVersion = '2026-10-28.endive';

/** A call that has not answered in this time fails (and counts as Stripe being unavailable). */
const requestTimeoutMs = 10_000;

/** Where the SDK sends its requests: api.stripe.com unless a test points it at a local stand-in. */
export interface StripeApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret?: string;
  apiBase?: StripeApiBase;
}

export type StripeProvider = PaymentProvider & {
  /**
   * Checks the `Stripe-Signature` header against the raw request body and returns the event.
   * Throws (Stripe's StripeSignatureVerificationError) on a missing, wrong or stale signature:
   * the webhook route answers 400.
   */
  verifyWebhook(rawBody: string | Buffer, signatureHeader: string | undefined): Stripe.Event;
};

/**
 * Card payments through Stripe (when its keys are configured): PaymentIntents confirmed in the
 * browser with Stripe.js, refunds, and webhook signature checks, all through the real SDK.
 */
export function createStripeProvider(options: StripeProviderOptions): StripeProvider {
  const stripe = new Stripe(options.secretKey, {
    apiVersion,
    maxNetworkRetries: 1,
    timeout: requestTimeoutMs,
    ...options.apiBase,
  });

  return {
    kind: 'stripe',
    publishableKey: options.publishableKey,

    async createPaymentIntent(input) {
      // `locale` is not sent: Stripe.js shows the payment form in the buyer's language.
      const intent = await unlessUnavailable('create a payment', () =>
        stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency.toLowerCase(),
            metadata: { orderId: input.orderId },
            receipt_email: input.email,
            description: input.description,
            automatic_payment_methods: { enabled: true },
          },
          { idempotencyKey: input.orderId },
        ),
      );
      if (!intent.client_secret) throw new Error(`Stripe returned payment ${intent.id} without a client secret`);
      return { ...intentState(intent), clientSecret: intent.client_secret };
    },

    async retrievePaymentIntent(ref) {
      return intentState(await unlessUnavailable('read a payment', () => stripe.paymentIntents.retrieve(ref)));
    },

    async refund(input) {
      const refund = await unlessUnavailable('refund a payment', () =>
        stripe.refunds
          .create(
            {
              payment_intent: input.paymentRef,
              amount: input.amount,
              reason: 'requested_by_customer',
              metadata: { reason: input.reason, [refundKeyMetadata]: input.idempotencyKey },
            },
            { idempotencyKey: input.idempotencyKey },
          )
          .catch(refusedRefund),
      );
      return refundResult(refund);
    },

    async listRefunds(paymentRef) {
      const refunds = await unlessUnavailable('list the refunds of a payment', () =>
        // A payment has a handful of refunds at most; the cap only guards against a runaway list.
        stripe.refunds.list({ payment_intent: paymentRef, limit: 100 }).autoPagingToArray({ limit: 1000 }),
      );
      return refunds.map(refundResult);
    },

    verifyWebhook(rawBody, signatureHeader) {
      if (!options.webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not configured');
      return stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', options.webhookSecret);
    },
  };
}

function intentState(intent: Stripe.PaymentIntent): PaymentIntentState {
  return {
    ref: intent.id,
    status: paymentStatus(intent.status),
    amount: intent.amount,
    currency: intent.currency,
    orderId: intent.metadata.orderId ?? null,
  };
}

/**
 * Stripe's status in our smaller vocabulary. Two of Stripe's have no twin:
 * - `requires_confirmation`: a payment method is attached but the buyer has not confirmed yet, so
 *   it is still the buyer's turn in the payment form: `requires_payment_method`.
 * - `requires_capture`: the card is only authorised. We never ask for manual capture, so this is
 *   unexpected; no money has moved yet, so it must not count as paid: `processing` (not final,
 *   read again later). Any status a later API version adds is treated the same way.
 */
function paymentStatus(status: Stripe.PaymentIntent.Status): PaymentStatus {
  switch (status) {
    case 'requires_payment_method':
    case 'requires_confirmation':
      return 'requires_payment_method';
    case 'requires_action':
      return 'requires_action';
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    default:
      return 'processing';
  }
}

/** The metadata entry that carries our idempotency key on a refund (see RefundResult.key). */
const refundKeyMetadata = 'admit_refund_key';

function refundResult(refund: Stripe.Refund): RefundResult {
  return {
    ref: refund.id,
    amount: refund.amount,
    status: refundStatus(refund.status),
    key: refund.metadata?.[refundKeyMetadata] ?? null,
  };
}

/** Stripe's codes for a refund the payment's state forbids (not a bug of ours, not an outage). */
const refusalCodes = new Set([
  'charge_already_refunded',
  'amount_too_large',
  'charge_disputed',
  'refund_disputed_payment',
  'charge_not_refundable',
]);

function refusedRefund(error: unknown): never {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code && refusalCodes.has(error.code)) {
    throw new RefundRefused(`Stripe refused the refund: ${error.message}`, error.code, { cause: error });
  }
  throw error;
}

const refundStatuses: readonly RefundResult['status'][] = ['pending', 'succeeded', 'failed', 'canceled', 'requires_action'];

/** A refund without a known status is not final yet: `pending`. */
function refundStatus(status: string | null): RefundResult['status'] {
  return refundStatuses.find((known) => known === status) ?? 'pending';
}

/**
 * Runs a Stripe call, turning "Stripe cannot be reached or is failing" into
 * PaymentProviderUnavailable (the caller answers `unavailable`, retry is safe). Every other
 * Stripe error (declined, invalid request, authentication…) propagates as Stripe threw it.
 */
async function unlessUnavailable<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isUnavailable(error)) {
      throw new PaymentProviderUnavailable(`Stripe is unavailable, could not ${action}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * A connection failure or timeout, a rate limit, or a server error. A StripeAPIError without a
 * status code is an answer that was not Stripe's JSON (e.g. a proxy's error page): also unavailable.
 */
function isUnavailable(error: unknown): error is Stripe.errors.StripeError {
  const { StripeConnectionError, StripeRateLimitError, StripeAPIError } = Stripe.errors;
  if (error instanceof StripeConnectionError || error instanceof StripeRateLimitError) return true;
  return error instanceof StripeAPIError && (error.statusCode === undefined || error.statusCode >= 500);
}
