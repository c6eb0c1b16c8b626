import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementLocale } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Alert, Button, Stack, Text } from '@mantine/core';
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
  /**
   * In another site's frame (decision 0061): the order's own page, where a method that leaves the
   * page for the bank's continues in a new tab.
   */
  newTabHref?: string;
  onPaid: () => void;
}

/**
 * The methods Stripe.js completes without leaving the page: cards (their 3-D Secure runs in Stripe's
 * own dialog, inside the frame too), wallets and Link in their own sheets, direct debits by mandate.
 * Every other method sends the buyer to their bank's or the provider's page, which may refuse to be
 * shown inside another site.
 */
const staysOnPage = new Set(['card', 'link', 'apple_pay', 'google_pay', 'sepa_debit', 'us_bank_account', 'bacs_debit']);

/** Stripe's Payment Element in the buyer's language; confirmation happens in the browser with Stripe.js. */
export function StripePayment({ publishableKey, clientSecret, returnUrl, newTabHref, onPaid }: StripePaymentProps) {
  // The interface's language, which Stripe speaks in all six; not the region's tag dates are written
  // in ("en-US" is no locale of Stripe's).
  const { locale } = useLocale();
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret, locale: locale as StripeElementLocale, appearance: { theme: 'stripe' } }}
    >
      <PaymentForm returnUrl={returnUrl} newTabHref={newTabHref} onPaid={onPaid} />
    </Elements>
  );
}

function PaymentForm({ returnUrl, newTabHref, onPaid }: Pick<StripePaymentProps, 'returnUrl' | 'newTabHref' | 'onPaid'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [method, setMethod] = useState('card');
  // In a frame, a method that leaves the page is paid on the order's own page, in a new tab; this
  // frame sees the order paid as it happens there.
  const inNewTab = newTabHref !== undefined && !staysOnPage.has(method);

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
        <PaymentElement onChange={(change) => setMethod(change.value.type)} />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {inNewTab ? (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              <FormattedMessage
                id="stripe.newTab"
                defaultMessage="This way of paying goes on to your bank’s page, which cannot open inside this website, so you pay on our page in a new tab. This page shows your tickets once you have paid."
              />
            </Text>
            <Button component="a" size="md" href={newTabHref} target="_blank" rel="noopener">
              <FormattedMessage id="picker.newTab.continue" defaultMessage="Continue in a new tab" />
            </Button>
          </Stack>
        ) : (
          <Button type="submit" size="md" loading={paying} disabled={!stripe || !elements}>
            <FormattedMessage id="stripe.pay" defaultMessage="Pay now" />
          </Button>
        )}
      </Stack>
    </form>
  );
}
