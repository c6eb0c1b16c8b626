import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementLocale } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Alert, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLocale } from '../../lib/i18n';

// One Stripe.js per publishable key. This module is imported only when the payment step opens, and
// `pure` adds the <script> only when loadStripe is called: no page before it talks to Stripe.
const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (publishableKey: string) => {
  if (!loaded.has(publishableKey)) loaded.set(publishableKey, loadStripe(publishableKey));
  return loaded.get(publishableKey)!;
};

export interface StripePaymentProps {
  publishableKey: string;
  clientSecret: string;
  /** The order page: where 3-D Secure and other redirects come back to. */
  returnUrl: string;
  onPaid: () => void;
}

/** Stripe's Payment Element in the buyer's language; confirmation happens in the browser with Stripe.js. */
export function StripePayment({ publishableKey, clientSecret, returnUrl, onPaid }: StripePaymentProps) {
  // The interface's language, which Stripe speaks in all six; not the region's tag dates are written
  // in ("en-US" is no locale of Stripe's).
  const { locale } = useLocale();
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret, locale: locale as StripeElementLocale, appearance: { theme: 'stripe' } }}
    >
      <PaymentForm returnUrl={returnUrl} onPaid={onPaid} />
    </Elements>
  );
}

function PaymentForm({ returnUrl, onPaid }: Pick<StripePaymentProps, 'returnUrl' | 'onPaid'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPaying(true);
    setError(null);
    // Cards that need no extra step finish here; 3-D Secure and redirect methods leave and come
    // back to returnUrl, where the order page asks the server to check the payment.
    const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    setPaying(false);
    if (result.error) setError(result.error.message ?? null);
    else onPaid();
  }

  return (
    <form onSubmit={pay}>
      <Stack gap="md">
        <PaymentElement />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" size="md" loading={paying} disabled={!stripe || !elements}>
          <FormattedMessage id="stripe.pay" defaultMessage="Pay now" />
        </Button>
      </Stack>
    </form>
  );
}
