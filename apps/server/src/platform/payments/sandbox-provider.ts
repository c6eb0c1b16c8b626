import { randomBytes } from 'node:crypto';
import { sandboxAuthenticate, sandboxConfirm, sandboxTestCards } from '@admit/shared/payments';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { defineCallable } from '../http/callable';
import { CallableError } from '../http/callable-error';
import { RefundRefused, type PaymentIntentState, type PaymentProvider } from './payment-provider';
import { sandboxPayment } from './schema';

const stateOf = (row: typeof sandboxPayment.$inferSelect): PaymentIntentState => ({
  ref: row.id,
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  orderId: row.orderId,
  lastDecline: row.declines > 0 ? { code: 'card_declined', attempt: row.declines } : null,
});

/**
 * The embedded default when no Stripe keys are set: the same flow as Stripe (create, confirm in
 * the browser, read back on the server), kept in the sandbox_payment table. No money moves, and
 * the UI says so wherever it appears. config.ts refuses production without Stripe keys.
 */
export function createSandboxProvider(db: Db): PaymentProvider {
  return {
    kind: 'sandbox',
    publishableKey: null,
    async createPaymentIntent(input) {
      // One payment per order, as Stripe's idempotency key on the order id gives.
      await db
        .insert(sandboxPayment)
        .values({
          id: `sbx_pi_${randomBytes(12).toString('hex')}`,
          orderId: input.orderId,
          clientSecret: `sbx_secret_${randomBytes(18).toString('base64url')}`,
          amount: input.amount,
          currency: input.currency,
          status: 'requires_payment_method',
        })
        .onConflictDoNothing({ target: sandboxPayment.orderId });
      const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.orderId, input.orderId));
      return { ...stateOf(row!), clientSecret: row!.clientSecret };
    },
    async retrievePaymentIntent(ref) {
      const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.id, ref));
      if (!row) throw new Error(`No sandbox payment ${ref}`);
      return stateOf(row);
    },
    async refund({ paymentRef, amount, idempotencyKey }) {
      const [row] = await db
        .update(sandboxPayment)
        .set({ refunded: sql`${sandboxPayment.refunded} + ${amount}` })
        .where(and(eq(sandboxPayment.id, paymentRef), sql`${sandboxPayment.refunded} + ${amount} <= ${sandboxPayment.amount}`))
        .returning();
      if (!row) throw new RefundRefused('The refund is more than what is left of the payment', 'amount_too_large');
      return { ref: `sbx_re_${idempotencyKey}`, amount, status: 'succeeded', key: idempotencyKey };
    },
    // The sandbox has no dashboard: every refund of a sandbox payment was made through Admit and is
    // recorded there already, and the table keeps only their total. So there is nothing to find.
    async listRefunds() {
      return [];
    },
  };
}

async function paymentBySecret(db: Db, clientSecret: string) {
  const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.clientSecret, clientSecret));
  if (!row) throw new CallableError('not-found', 'No such payment');
  return row;
}

async function setStatus(db: Db, id: string, status: (typeof sandboxPayment.$inferSelect)['status']) {
  await db.update(sandboxPayment).set({ status }).where(eq(sandboxPayment.id, id));
}

/**
 * The sandbox card form's "Pay": Stripe's test numbers decide the outcome, as they do at Stripe.
 * The client secret is the capability, as at Stripe: a guest pays without a session too.
 */
export const sandboxConfirmCallable = defineCallable(sandboxConfirm, {
  auth: 'optional',
  async handler(input, ctx) {
    const payment = await paymentBySecret(ctx.db, input.clientSecret);
    if (payment.status === 'succeeded') return { status: 'succeeded' as const };
    if (input.cardNumber === sandboxTestCards.declined) {
      await ctx.db
        .update(sandboxPayment)
        .set({ status: 'requires_payment_method', declines: sql`${sandboxPayment.declines} + 1` })
        .where(eq(sandboxPayment.id, payment.id));
      return { status: 'declined' as const };
    }
    if (input.cardNumber === sandboxTestCards.requiresAction) {
      await setStatus(ctx.db, payment.id, 'requires_action');
      return { status: 'requires_action' as const };
    }
    if (input.cardNumber === sandboxTestCards.succeeds) {
      await setStatus(ctx.db, payment.id, 'succeeded');
      return { status: 'succeeded' as const };
    }
    throw new CallableError('invalid-argument', 'Use a test card number', {
      fields: [{ path: 'cardNumber', message: 'Use a test card such as 4242 4242 4242 4242', code: 'custom' }],
    });
  },
});

/** The sandbox's confirmation step (what 3-D Secure is at a real bank). */
export const sandboxAuthenticateCallable = defineCallable(sandboxAuthenticate, {
  auth: 'optional',
  async handler(input, ctx) {
    const payment = await paymentBySecret(ctx.db, input.clientSecret);
    if (payment.status !== 'requires_action') throw new CallableError('failed-precondition', 'Nothing to confirm');
    await setStatus(ctx.db, payment.id, input.approve ? 'succeeded' : 'requires_payment_method');
    return { status: input.approve ? ('succeeded' as const) : ('declined' as const) };
  },
});

/** The sandbox's card form. app.ts does not serve these in production, whatever the provider. */
export const sandboxCallables = [sandboxConfirmCallable, sandboxAuthenticateCallable];
