import type { BrowserContext, Route } from 'playwright-core';
import { startStripeStandIn, type StripeStandIn } from '../../apps/server/src/testing/stripe-stand-in';

/**
 * Stands in for Stripe.js at its real address (https://js.stripe.com/<release>/stripe.js), served by
 * Playwright routing: this machine cannot reach Stripe. It implements the few calls that
 * @stripe/react-stripe-js and our payment step make. The Payment Element becomes a choice of two
 * methods (a card, and iDEAL, which pays at the bank's page) and one card-number field; confirming
 * posts to https://api.stripe.com, also routed. As Stripe.js does with `redirect: 'if_required'`, a
 * card that needs 3-D Secure is authenticated in a dialog on the page (Stripe's own, in a frame of
 * its own there), and iDEAL leaves the page for the bank's and comes back to the return URL.
 */
const stripeJsStandIn = `
window.Stripe = function Stripe(publishableKey) {
  let clientSecret = null;
  let locale = null;
  const changeHandlers = [];
  const element = {
    mount(target) {
      const node = typeof target === 'string' ? document.querySelector(target) : target;
      node.innerHTML = '<fieldset><legend>Payment method (Stripe stand-in)</legend>'
        + '<label><input type="radio" name="stand-in-method" value="card" checked> Card</label> '
        + '<label><input type="radio" name="stand-in-method" value="ideal"> iDEAL</label></fieldset>'
        + '<label>Card number (Stripe stand-in) <input name="stand-in-card" autocomplete="cc-number"></label>';
      node.dataset.locale = locale;
      node.dataset.publishableKey = publishableKey;
      for (const radio of node.querySelectorAll('input[name="stand-in-method"]')) {
        radio.addEventListener('change', () => {
          for (const handler of changeHandlers) handler({ elementType: 'payment', empty: false, complete: false, value: { type: radio.value } });
        });
      }
    },
    on(event, handler) { if (event === 'change') changeHandlers.push(handler); return element; },
    off(event, handler) { const at = changeHandlers.indexOf(handler); if (at >= 0) changeHandlers.splice(at, 1); return element; },
    once() { return element; },
    update() {}, unmount() {}, destroy() {}, focus() {}, blur() {}, clear() {}, collapse() {},
  };
  const elements = {
    create() { return element; }, getElement() { return element; }, update() {},
    fetchUpdates: async () => ({}), submit: async () => ({}),
  };
  /** Stripe's test page for 3-D Secure, in a dialog over the page. */
  const authenticate = () => new Promise((resolve) => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-label', '3D Secure 2 Test Page');
    dialog.style.cssText = 'position:fixed;inset:20px;background:#fff;border:1px solid #888;padding:16px;z-index:1000';
    dialog.innerHTML = '<button type="button">Complete authentication</button>';
    dialog.querySelector('button').addEventListener('click', () => { dialog.remove(); resolve(); });
    document.body.append(dialog);
  });
  return {
    _registerWrapper() {}, registerAppInfo() {},
    createToken() {}, createPaymentMethod() {}, confirmCardPayment() {},
    elements(options) { clientSecret = options.clientSecret; locale = options.locale; return elements; },
    async confirmPayment({ confirmParams }) {
      const intent = clientSecret.split('_secret_')[0];
      const method = document.querySelector('input[name="stand-in-method"]:checked').value;
      const card = document.querySelector('input[name="stand-in-card"]').value;
      const response = await fetch('https://api.stripe.com/v1/payment_intents/' + intent + '/confirm', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_secret: clientSecret, method, card }),
      });
      const body = await response.json();
      if (body.error) return { error: body.error };
      if (body.status === 'requires_action' && method === 'card') {
        await authenticate();
        return { paymentIntent: { id: intent, status: 'succeeded' } };
      }
      if (body.status === 'requires_action') {
        const back = new URL(confirmParams.return_url);
        back.searchParams.set('payment_intent', intent);
        back.searchParams.set('redirect_status', 'succeeded');
        location.assign(back.toString());
        return new Promise(() => {});
      }
      return { paymentIntent: body };
    },
  };
};
`;

/**
 * Routes Stripe.js and its confirmation call in `context` (its pages, their frames and the tabs they
 * open) to the stand-ins. What Stripe's API does on confirming: the bank says yes (4242…), no
 * (…0002), or "authenticate first" (…3155, and iDEAL always), and the payment is then marked paid
 * in the API stand-in, as a completed authentication would.
 */
export async function routeStripeJs(context: BrowserContext, standIn: StripeStandIn): Promise<void> {
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: stripeJsStandIn }),
  );
  await context.route('https://api.stripe.com/v1/payment_intents/*/confirm', (route: Route) => {
    const intentId = new URL(route.request().url()).pathname.split('/')[3]!;
    const form = new URLSearchParams(route.request().postData() ?? '');
    const card = (form.get('card') ?? '').replace(/\s/g, '');
    if (form.get('method') === 'card' && card === '4000000000000002') {
      standIn.fail(intentId);
      return route.fulfill({
        status: 402,
        json: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
      });
    }
    standIn.succeed(intentId);
    const authenticate = form.get('method') === 'ideal' || card === '4000002500003155';
    return route.fulfill({ json: { id: intentId, status: authenticate ? 'requires_action' : 'succeeded' } });
  });
}

/**
 * A journey's server with Stripe's keys and its API at a stand-in started for it: `env` for
 * useJourney, and the stand-in once the server has started (closed with `close`).
 */
export function stripeJourney() {
  let standIn: StripeStandIn | undefined;
  return {
    env: async () => {
      standIn = await startStripeStandIn();
      return {
        STRIPE_SECRET_KEY: 'sk_test_browser_journey',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_browser_journey',
        STRIPE_WEBHOOK_SECRET: 'whsec_browser_journey',
        STRIPE_API_URL: `http://${standIn.apiBase.host}:${standIn.apiBase.port}`,
      };
    },
    standIn: () => {
      if (!standIn) throw new Error('the Stripe stand-in starts with the journey’s server');
      return standIn;
    },
    close: () => standIn?.close(),
  };
}
