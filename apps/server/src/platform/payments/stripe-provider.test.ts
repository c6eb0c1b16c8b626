import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedWebhook, startStripeStandIn, type StripeStandIn } from '../../testing/stripe-stand-in';
import { PaymentProviderUnavailable, RefundRefused } from './payment-provider';
import { createStripeProvider, type StripeProvider } from './stripe-provider';

const keys = { secretKey: 'sk_test_stand_in', publishableKey: 'pk_test_stand_in', webhookSecret: 'whsec_stand_in' };

let standIn: StripeStandIn;
let provider: StripeProvider;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = createStripeProvider({ ...keys, apiBase: standIn.apiBase });
});
afterEach(() => standIn.setDown(false));
afterAll(() => standIn?.close());

const paymentFor = (orderId = randomUUID(), amount = 2500) =>
  provider.createPaymentIntent({
    orderId,
    amount,
    currency: 'EUR',
    locale: 'de',
    email: 'buyer@example.com',
    description: 'Admit order: 2 tickets',
  });

async function paidPayment(amount = 2500) {
  const payment = await paymentFor(randomUUID(), amount);
  standIn.succeed(payment.ref);
  return payment;
}

const refund = (paymentRef: string, amount: number, idempotencyKey = randomUUID()) =>
  provider.refund({ paymentRef, amount, idempotencyKey, reason: 'Event cancelled' });

describe('payments through the Stripe provider', () => {
  it('creates a payment intent with the amount the server computed and the order id as metadata', async () => {
    const orderId = randomUUID();
    const payment = await paymentFor(orderId, 2500);

    expect(payment).toMatchObject({ status: 'requires_payment_method', amount: 2500, currency: 'eur', orderId });
    expect(payment.ref).toMatch(/^pi_/);
    expect(payment.clientSecret).toMatch(new RegExp(`^${payment.ref}_secret_`));
    expect(standIn.intents.get(payment.ref)).toMatchObject({
      amount: 2500,
      metadata: { orderId },
      receipt_email: 'buyer@example.com',
      description: 'Admit order: 2 tickets',
    });
  });

  it('gives the same intent for the same order twice, because the order id is sent as the idempotency key', async () => {
    const orderId = randomUUID();
    const intentsBefore = standIn.intents.size;
    const requestsBefore = standIn.requests.length;

    const first = await paymentFor(orderId);
    const second = await paymentFor(orderId);

    expect(second).toEqual(first);
    expect(standIn.intents.size).toBe(intentsBefore + 1);
    expect(standIn.requests.slice(requestsBefore)).toEqual([
      { method: 'POST', path: '/v1/payment_intents', idempotencyKey: orderId },
      { method: 'POST', path: '/v1/payment_intents', idempotencyKey: orderId },
    ]);
  });

  it('lets other Stripe errors through unchanged, such as reusing an order id for another amount', async () => {
    const orderId = randomUUID();
    await paymentFor(orderId, 2500);

    await expect(paymentFor(orderId, 3000)).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('reads back the state the payment reached at Stripe', async () => {
    const payment = await paymentFor();

    standIn.requireAction(payment.ref);
    expect(await provider.retrievePaymentIntent(payment.ref)).toMatchObject({ status: 'requires_action' });

    standIn.fail(payment.ref);
    expect(await provider.retrievePaymentIntent(payment.ref)).toMatchObject({ status: 'requires_payment_method' });

    standIn.succeed(payment.ref);
    expect(await provider.retrievePaymentIntent(payment.ref)).toEqual({
      ref: payment.ref,
      status: 'succeeded',
      amount: payment.amount,
      currency: 'eur',
      orderId: payment.orderId,
    });
  });

  it('refunds part of a payment, then the rest, and refuses a third refund beyond the amount', async () => {
    const payment = await paidPayment(2500);

    expect(await refund(payment.ref, 1000)).toMatchObject({
      ref: expect.stringMatching(/^re_/),
      amount: 1000,
      status: 'succeeded',
    });
    expect(await refund(payment.ref, 1500)).toMatchObject({ amount: 1500, status: 'succeeded' });
    const refused = refund(payment.ref, 1);
    await expect(refused).rejects.toBeInstanceOf(RefundRefused);
    await expect(refused).rejects.toMatchObject({
      reason: 'charge_already_refunded',
      cause: expect.objectContaining({ type: 'StripeInvalidRequestError' }),
    });
  });

  it('refuses a refund larger than what is left of the payment as RefundRefused, not as a bug', async () => {
    const payment = await paidPayment(2500);
    await refund(payment.ref, 1000);

    await expect(refund(payment.ref, 2000)).rejects.toMatchObject({ name: 'RefundRefused', reason: 'amount_too_large' });
  });

  it('refuses a refund of a payment that never succeeded as RefundRefused', async () => {
    const payment = await paymentFor();

    await expect(refund(payment.ref, 100)).rejects.toMatchObject({ name: 'RefundRefused', reason: 'charge_not_refundable' });
  });

  it('lets other refund errors through unchanged, such as a payment Stripe does not know', async () => {
    await expect(refund('pi_unknown', 100)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it('lists every refund of a payment, ours with the key we sent and those made in the dashboard without one', async () => {
    const payment = await paidPayment(2500);
    const key = randomUUID();
    const ours = await refund(payment.ref, 1000, key);
    const theirs = standIn.refundInDashboard(payment.ref, 500);
    standIn.setRefundStatus(theirs.id, 'pending');
    await paidPayment(1000).then((other) => refund(other.ref, 1000));

    const listed = await provider.listRefunds(payment.ref);

    expect(ours).toMatchObject({ key });
    expect(listed.sort((a, b) => a.amount - b.amount)).toEqual([
      { ref: theirs.id, amount: 500, status: 'pending', key: null },
      { ref: ours.ref, amount: 1000, status: 'succeeded', key },
    ]);
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/refunds' });
  });

  it('makes a retried refund with the same key the same refund', async () => {
    const payment = await paidPayment(2500);
    const key = randomUUID();

    const first = await refund(payment.ref, 1000, key);
    const retried = await refund(payment.ref, 1000, key);

    expect(retried).toEqual(first);
    expect([...standIn.refunds.values()].filter((r) => r.payment_intent === payment.ref)).toHaveLength(1);
    expect(standIn.requests.filter((r) => r.path === '/v1/refunds' && r.idempotencyKey === key)).toHaveLength(2);
  });

  // The SDK retries a dropped connection and a 5xx once (maxNetworkRetries: 1), a 429 not at all.
  it.each([
    ['drops every connection', 'drop', 2],
    ['answers 503 Service Unavailable', 'error', 2],
    ['answers 429 Too Many Requests', 'rate-limit', 1],
  ] as const)('answers PaymentProviderUnavailable when Stripe %s', async (_description, how, attemptsPerCall) => {
    const payment = await paymentFor();
    standIn.setDown(true, how);
    const requestsBefore = standIn.requests.length;

    await expect(provider.retrievePaymentIntent(payment.ref)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    await expect(paymentFor()).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    await expect(refund(payment.ref, 100)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    await expect(provider.listRefunds(payment.ref)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(standIn.requests.length - requestsBefore).toBe(4 * attemptsPerCall);
  });

  it('answers PaymentProviderUnavailable when nothing listens at Stripe’s address', async () => {
    const unreachable = createStripeProvider({ ...keys, apiBase: { ...standIn.apiBase, port: await closedPort() } });

    await expect(unreachable.retrievePaymentIntent('pi_unknown')).rejects.toBeInstanceOf(PaymentProviderUnavailable);
  });
});

describe('Stripe webhook verification', () => {
  const event = {
    id: 'evt_stand_in',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_stand_in', object: 'payment_intent' } },
  };
  const SignatureVerificationError = Stripe.errors.StripeSignatureVerificationError;

  it('accepts a webhook signed with the endpoint’s secret, as text or as raw bytes', () => {
    const { body, signature } = signedWebhook(event, keys.webhookSecret);

    expect(provider.verifyWebhook(body, signature)).toMatchObject({ id: event.id, type: event.type });
    expect(provider.verifyWebhook(Buffer.from(body), signature)).toMatchObject({ id: event.id });
  });

  it('refuses a webhook whose body was changed after signing', () => {
    const { body, signature } = signedWebhook(event, keys.webhookSecret);
    const tampered = body.replace('pi_stand_in', 'pi_someone_else');

    expect(() => provider.verifyWebhook(tampered, signature)).toThrow(SignatureVerificationError);
  });

  it('refuses a webhook signed with another secret', () => {
    const { body, signature } = signedWebhook(event, 'whsec_someone_else');

    expect(() => provider.verifyWebhook(body, signature)).toThrow(SignatureVerificationError);
  });

  it('refuses a webhook without a signature header', () => {
    const { body } = signedWebhook(event, keys.webhookSecret);

    expect(() => provider.verifyWebhook(body, undefined)).toThrow(SignatureVerificationError);
  });

  it('refuses a webhook signed longer ago than the tolerance', () => {
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 10 * 60;
    const { body, signature } = signedWebhook(event, keys.webhookSecret, { timestamp: tenMinutesAgo });

    expect(() => provider.verifyWebhook(body, signature)).toThrow(SignatureVerificationError);
  });
});

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
