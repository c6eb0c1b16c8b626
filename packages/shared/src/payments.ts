import { z } from 'zod';
import { defineCallableContract } from './callable';

/**
 * The sandbox payment provider's card form (the embedded default, no money moves): it takes
 * Stripe's test card numbers. 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined,
 * 4000 0025 0000 3155 asks for a confirmation step first.
 */
export const sandboxTestCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  requiresAction: '4000002500003155',
} as const;

const ClientSecret = z.string().min(10).max(200);

export const SandboxConfirmInput = z.strictObject({
  clientSecret: ClientSecret,
  cardNumber: z
    .string()
    .max(40)
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Enter the card number')),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, 'Enter the expiry as MM/YY'),
  cvc: z.string().regex(/^\d{3,4}$/, 'Enter the 3 or 4 digits on the back'),
});
export const SandboxPaymentStatus = z.enum(['succeeded', 'requires_action', 'declined']);
export const sandboxConfirm = defineCallableContract(
  'payments.sandboxConfirm',
  SandboxConfirmInput,
  z.object({ status: SandboxPaymentStatus }),
);

/** The sandbox's stand-in for a 3-D Secure page: the person approves or refuses the payment. */
export const sandboxAuthenticate = defineCallableContract(
  'payments.sandboxAuthenticate',
  z.strictObject({ clientSecret: ClientSecret, approve: z.boolean() }),
  z.object({ status: SandboxPaymentStatus }),
);
