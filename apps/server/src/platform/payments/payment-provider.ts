/**
 * A card payment provider, as the orders module sees it: Stripe when its keys are configured,
 * otherwise the sandbox (test payments, no money moves; refused in production). Amounts are
 * integer minor units of `currency` (ISO 4217, lower or upper case), always computed by the server.
 */
export type PaymentStatus = 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

export interface PaymentIntentState {
  /** The provider's id of the payment (Stripe: the PaymentIntent id, `pi_…`). */
  ref: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  /** Our order id, as stored in the provider's metadata. */
  orderId: string | null;
  /**
   * The latest declined try and how many there were, where the provider tells it only this way
   * (the sandbox; Stripe announces each with a `payment_intent.payment_failed` webhook instead).
   */
  lastDecline?: { code: string; attempt: number } | null;
}

export interface CreatedPaymentIntent extends PaymentIntentState {
  /** Handed to the browser, which confirms the payment with it (Stripe.js or the sandbox form). */
  clientSecret: string;
}

export interface RefundResult {
  /** The provider's id of the refund (Stripe: `re_…`). */
  ref: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
  /**
   * The idempotency key Admit sent with the refund (Stripe keeps it in the refund's metadata), so a
   * refund found by reconciliation before its own call returned is matched to the refund we
   * recorded. Null for a refund made elsewhere (Stripe's dashboard).
   */
  key: string | null;
}

export interface PaymentProvider {
  kind: 'stripe' | 'sandbox';
  /** For the browser: Stripe's publishable key; null for the sandbox. */
  publishableKey: string | null;
  /**
   * Creates (or, for the same order, returns again) the payment for an order. Idempotent by
   * order id: Stripe gets it as the Idempotency-Key, so a retry never creates a second charge.
   * Throws PaymentProviderUnavailable when the provider cannot be reached.
   */
  createPaymentIntent(input: {
    orderId: string;
    amount: number;
    currency: string;
    locale: string;
    email: string;
    description: string;
  }): Promise<CreatedPaymentIntent>;
  /** Reads the payment's current state from the provider (never trust a webhook body or the browser alone). */
  retrievePaymentIntent(ref: string): Promise<PaymentIntentState>;
  /**
   * Refunds `amount` of a payment. `idempotencyKey` makes a retried refund the same refund
   * (one key per refund we record).
   */
  refund(input: { paymentRef: string; amount: number; idempotencyKey: string; reason: string }): Promise<RefundResult>;
  /**
   * Every refund the provider holds for a payment, also those made outside Admit (Stripe's
   * dashboard): reconciliation re-reads them rather than trusting a webhook's body.
   */
  listRefunds(paymentRef: string): Promise<RefundResult[]>;
}

/** The provider could not be reached or answered with a server error: the caller gets `unavailable`. */
export class PaymentProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderUnavailable';
  }
}

/**
 * The provider refused a refund for the state of the payment: already refunded, more than what is
 * left, disputed. The caller answers `failed-precondition`; sending it again will not help.
 */
export class RefundRefused extends Error {
  constructor(
    message: string,
    /** The provider's reason (Stripe's error code, e.g. `charge_already_refunded`). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RefundRefused';
  }
}
