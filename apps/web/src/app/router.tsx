import { createRoute, createRouter } from '@tanstack/react-router';
import { z } from 'zod';
import { HomePage } from '../features/events/home-page';
import { PublicEventPage } from '../features/events/public-event-page';
import { lazyPart, lazyScreen, withMoreStyles } from './lazy-screen';
import { RequireSession } from './require-session';
import { RouteError } from './route-error';
import { manageRoutes } from './manage-routes';
import { rootRoute } from './root-route';

// The public pages load first; the rest of the app comes in its own chunks when first visited.
// The ticket picker (a number field, the order form) is a chunk of its own, fetched while the
// event is (decision 0042).
const loadTicketPicker = withMoreStyles(() => import('../features/checkout/ticket-picker'));
const TicketPicker = lazyPart(async () => (await loadTicketPicker()).TicketPicker);
const AccessibilityPage = lazyScreen(() => import('../features/accessibility/accessibility-page'), 'AccessibilityPage');
const SignInPage = lazyScreen(() => import('../features/account/sign-in-page'), 'SignInPage');
const SignUpPage = lazyScreen(() => import('../features/account/sign-up-page'), 'SignUpPage');
const ForgotPasswordPage = lazyScreen(() => import('../features/account/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyScreen(() => import('../features/account/reset-password-page'), 'ResetPasswordPage');
const AccountPage = lazyScreen(() => import('../features/account/account-page'), 'AccountPage');
const MyTicketsPage = lazyScreen(() => import('../features/tickets/my-tickets-page'), 'MyTicketsPage');
const OrderPage = lazyScreen(() => import('../features/checkout/order-page'), 'OrderPage');
const OrderTicketHolders = lazyScreen(() => import('../features/tickets/order-ticket-holders'), 'OrderTicketHolders');
const OrderMessages = lazyScreen(() => import('../features/messages/order-messages'), 'OrderMessages');

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: HomePage });

const redirectSearch = z.object({ redirect: z.string().startsWith('/').optional().catch(undefined) });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  // An email link that did not work comes back as ?method=email-link&error=INVALID_TOKEN.
  validateSearch: redirectSearch.extend({
    method: z.enum(['password', 'email-link', 'phone']).optional().catch(undefined),
    error: z.string().max(64).optional().catch(undefined),
    // An email link for a person with two-factor authentication on comes back as ?step=second-factor.
    step: z.literal('second-factor').optional().catch(undefined),
  }),
  component: function SignInRoute() {
    const { redirect, method, error, step } = signInRoute.useSearch();
    return (
      <SignInPage
        redirectTo={redirect ?? '/'}
        initialMethod={method}
        linkError={method === 'email-link' ? error : undefined}
        secondFactor={step === 'second-factor'}
      />
    );
  },
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-up',
  validateSearch: redirectSearch,
  component: function SignUpRoute() {
    const { redirect } = signUpRoute.useSearch();
    return <SignUpPage redirectTo={redirect ?? '/'} />;
  },
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: ForgotPasswordPage,
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: z.object({ token: z.string().min(1).optional().catch(undefined) }),
  component: function ResetPasswordRoute() {
    const { token } = resetPasswordRoute.useSearch();
    return <ResetPasswordPage token={token} />;
  },
});

const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  component: () => (
    <RequireSession>
      <AccountPage />
    </RequireSession>
  ),
});

const publicEventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/e/$slug',
  // Not awaited: the page renders at once, the picker's chunk and styles come while the event is fetched.
  loader: () => {
    void loadTicketPicker();
  },
  // The language of the event's words (`?lang=fr`, lib/event-language.ts), and an access code in the
  // link (`?code=PRESS`), applied as if typed.
  validateSearch: z.object({
    lang: z.string().max(10).optional().catch(undefined),
    code: z.string().trim().min(1).max(40).toUpperCase().optional().catch(undefined),
  }),
  component: function PublicEventRoute() {
    const { slug } = publicEventRoute.useParams();
    const { code } = publicEventRoute.useSearch();
    const navigate = publicEventRoute.useNavigate();
    // The event page shows the event; checkout owns choosing and taking tickets.
    return (
      <PublicEventPage
        slug={slug}
        // No boundary of its own: the event shows with its tickets, as one page, once both are in.
        tickets={(event) => (
          <TicketPicker
            event={event}
            code={code ?? null}
            onCodeChange={(next) =>
              void navigate({ search: (before) => ({ ...before, code: next ?? undefined }), replace: true, resetScroll: false })
            }
          />
        )}
      />
    );
  },
});

const accessibilityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accessibility',
  component: AccessibilityPage,
});

const myTicketsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tickets',
  component: () => (
    <RequireSession>
      <MyTicketsPage />
    </RequireSession>
  ),
});

const orderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/orders/$orderId',
  // Stripe sends the buyer back here after 3-D Secure with ?payment_intent=…&redirect_status=….
  validateSearch: z.object({
    paid: z.literal('1').optional().catch(undefined),
    payment_intent: z.string().max(255).optional().catch(undefined),
  }),
  component: function OrderRoute() {
    const { orderId } = orderRoute.useParams();
    const search = orderRoute.useSearch();
    return (
      <RequireSession>
        <OrderPage
          orderId={orderId}
          returnedFromPayment={Boolean(search.paid || search.payment_intent)}
          holders={<OrderTicketHolders orderId={orderId} />}
          messages={(eventId) => <OrderMessages eventId={eventId} orderId={orderId} />}
        />
      </RequireSession>
    );
  },
});

const routeTree = rootRoute.addChildren([
  ...manageRoutes,
  homeRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  accountRoute,
  publicEventRoute,
  myTicketsRoute,
  orderRoute,
  accessibilityRoute,
]);

export const router = createRouter({
  routeTree,
  context: { queryClient: undefined! },
  defaultPreload: 'intent',
  // Inside the shell, so the header and its links stay usable when a page fails.
  defaultErrorComponent: RouteError,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
