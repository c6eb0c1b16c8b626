import { createRoute, createRouter, type RouterHistory } from '@tanstack/react-router';
import type { ComponentProps } from 'react';
import { HomePage } from '../features/events/home-page';
import { PublicEventPage } from '../features/events/public-event-page';
import { choiceParam, searchOf, sitePathParam, textParam } from '../lib/search-params';
import { lazyPart, lazyScreen } from './lazy-screen';
import { RouteError } from './route-error';
import { manageRoutes } from './manage-routes';
import { rootRoute } from './root-route';
import { RequireSession } from './require-session';
import { signedInRoute } from './signed-in-route';

// The public pages load first; the rest of the app comes in its own chunks when first visited.
// The ticket picker (a number field, the order form) is a chunk of its own, fetched while the
// event is (decision 0042).
const TicketPicker = lazyPart(async () => (await import('../features/checkout/ticket-picker')).TicketPicker);
// The event's waiting list, around the picker (joining under a sold-out type, the person's entries):
// loaded with it, as the server draws both.
const EventWaitlist = lazyPart(async () => (await import('../features/waitlist/event-waitlist')).EventWaitlist);
// Other sites' frames only (decision 0061): not in the public pages' first load.
const EmbeddedEvent = lazyPart(async () => (await import('../features/events/embedded-event')).EmbeddedEvent);
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
const GuestWaitlistPage = lazyScreen(() => import('../features/waitlist/guest-waitlist-page'), 'GuestWaitlistPage');
const IncomingTransferPage = lazyScreen(() => import('../features/transfers/incoming-transfer-page'), 'IncomingTransferPage');
const HeldTicketPage = lazyScreen(() => import('../features/tickets/held-ticket-page'), 'HeldTicketPage');

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: HomePage });

/** Where to go once signed in. */
const redirectOf = (search: Record<string, unknown>) => sitePathParam(search.redirect);

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  // An email link that did not work comes back as ?method=email-link&error=INVALID_TOKEN.
  validateSearch: (search) =>
    searchOf({
      redirect: redirectOf(search),
      method: choiceParam(search.method, ['password', 'email-link', 'phone']),
      error: textParam(search.error, { max: 64 }),
      // An email link for a person with two-factor authentication on comes back as ?step=second-factor.
      step: choiceParam(search.step, ['second-factor']),
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
  validateSearch: (search) => searchOf({ redirect: redirectOf(search) }),
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
  validateSearch: (search) => searchOf({ token: textParam(search.token, { min: 1, max: 2000 }) }),
  component: function ResetPasswordRoute() {
    const { token } = resetPasswordRoute.useSearch();
    return <ResetPasswordPage token={token} />;
  },
});

const accountRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/account',
  component: () => <AccountPage />,
});

const publicEventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/e/$slug',
  // The server draws the picker and the waiting list in the page's first view: their chunks' styles come with the page.
  staticData: { firstViewParts: ['src/features/checkout/ticket-picker.tsx', 'src/features/waitlist/event-waitlist.tsx'] },
  // The language of the event's words (`?lang=fr`, lib/event-language.ts), and an access code in the
  // link (`?code=PRESS`), applied as if typed.
  validateSearch: (search) =>
    searchOf({
      lang: textParam(search.lang, { max: 10 }),
      code: textParam(search.code, { trim: true, min: 1, max: 40 })?.toUpperCase(),
    }),
  // The picker's chunk and styles come while the event is fetched; the page shows once both are in,
  // with the code's field when the link carries a code.
  loaderDeps: ({ search }) => ({ withCode: search.code !== undefined }),
  loader: async ({ deps }) => {
    await Promise.all([
      TicketPicker.preload(),
      EventWaitlist.preload(),
      deps.withCode && import('../features/checkout/code-entry').then(({ CodeField }) => CodeField.preload()),
    ]);
  },
  component: function PublicEventRoute() {
    const { slug } = publicEventRoute.useParams();
    const { code } = publicEventRoute.useSearch();
    const navigate = publicEventRoute.useNavigate();
    // The event page shows the event; checkout owns choosing and taking tickets, and the waiting list
    // what a sold-out type offers instead.
    return (
      <PublicEventPage
        slug={slug}
        // No boundary of its own: the event shows with its tickets, as one page, once both are in.
        tickets={(event) => (
          <EventWaitlist event={event}>
            {(soldOut) => (
              <TicketPicker
                event={event}
                code={code ?? null}
                soldOut={soldOut}
                onCodeChange={(next) =>
                  void navigate({
                    search: (before) => ({ ...before, code: next ?? undefined }),
                    replace: true,
                    resetScroll: false,
                  })
                }
              />
            )}
          </EventWaitlist>
        )}
      />
    );
  },
});

/**
 * An event's checkout in another site's frame (embed.js, decision 0061): the host page's language
 * and the site itself (`source`, for analytics), a preset code, why the checkout must continue in
 * a tab of its own (`tab`: a page without HTTPS, a small screen), and whether it is over the page.
 */
const embeddedEventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/embed/e/$slug',
  validateSearch: (search) =>
    searchOf({
      lang: textParam(search.lang, { max: 35 }),
      code: textParam(search.code, { trim: true, min: 1, max: 40 })?.toUpperCase(),
      source: textParam(search.source, { max: 200 }),
      tab: choiceParam(search.tab, ['insecure', 'small']),
      over: choiceParam(search.over, ['page']),
    }),
  loader: () => Promise.all([EmbeddedEvent.preload(), TicketPicker.preload()]),
  component: function EmbeddedEventRoute() {
    const { slug } = embeddedEventRoute.useParams();
    const { code, tab, over } = embeddedEventRoute.useSearch();
    const navigate = embeddedEventRoute.useNavigate();
    return (
      <EmbeddedEvent
        slug={slug}
        dialog={over === 'page'}
        tickets={(event) => (
          <TicketPicker
            event={event}
            code={code ?? null}
            embedded={{ newTab: tab ?? null }}
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
  getParentRoute: () => signedInRoute,
  path: '/tickets',
  component: () => <MyTicketsPage />,
});

// Signed in, or opened by the token in a guest's email (?token=…, decision 0060).
const orderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/orders/$orderId',
  // Stripe sends the buyer back here after 3-D Secure with ?payment_intent=…&redirect_status=….
  validateSearch: (search) =>
    searchOf({
      paid: choiceParam(search.paid, ['1']),
      payment_intent: textParam(search.payment_intent, { max: 255 }),
      token: textParam(search.token, { max: 100 }),
    }),
  component: function OrderRoute() {
    const { orderId } = orderRoute.useParams();
    const search = orderRoute.useSearch();
    const returnedFromPayment = Boolean(search.paid || search.payment_intent);
    const holders = (order: ComponentProps<typeof OrderTicketHolders>['order'], accessToken: string | undefined) => (
      <OrderTicketHolders order={order} accessToken={accessToken} />
    );
    if (search.token)
      return (
        <OrderPage orderId={orderId} accessToken={search.token} returnedFromPayment={returnedFromPayment} holders={holders} />
      );
    return (
      <RequireSession>
        <OrderPage
          orderId={orderId}
          returnedFromPayment={returnedFromPayment}
          holders={holders}
          messages={(eventId) => <OrderMessages eventId={eventId} orderId={orderId} />}
        />
      </RequireSession>
    );
  },
});

// A guest's place on a waiting list, opened by the link emailed when they joined (?token=…, decision 0064).
const guestWaitlistRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/waitlist/$entryId',
  validateSearch: (search) => searchOf({ token: textParam(search.token, { max: 100 }) }),
  component: function GuestWaitlistRoute() {
    const { entryId } = guestWaitlistRoute.useParams();
    const { token } = guestWaitlistRoute.useSearch();
    return <GuestWaitlistPage entryId={entryId} token={token} />;
  },
});

// A ticket sent to someone, opened by the link emailed to them (?token=…, decision 0065): no sign-in needed.
const incomingTransferRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/transfers/$transferId',
  validateSearch: (search) => searchOf({ token: textParam(search.token, { max: 100 }) }),
  component: function IncomingTransferRoute() {
    const { transferId } = incomingTransferRoute.useParams();
    const { token } = incomingTransferRoute.useSearch();
    return <IncomingTransferPage transferId={transferId} token={token} />;
  },
});

// One ticket, opened by the token of its own link (?token=…, decision 0065): a guest who was sent it has
// no session. My tickets (/tickets, signed in) is a route of its own.
const heldTicketRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/tickets/$ticketId',
  validateSearch: (search) => searchOf({ token: textParam(search.token, { max: 100 }) }),
  component: function HeldTicketRoute() {
    const { ticketId } = heldTicketRoute.useParams();
    const { token } = heldTicketRoute.useSearch();
    return <HeldTicketPage ticketId={ticketId} token={token} />;
  },
});

/**
 * The payment step of an order made in another site's frame: the order page, in the frame, opened
 * by the guest's token or the session (decision 0061).
 */
const embeddedOrderRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/embed/orders/$orderId',
  validateSearch: (search) =>
    searchOf({
      source: textParam(search.source, { max: 200 }),
      paid: choiceParam(search.paid, ['1']),
      payment_intent: textParam(search.payment_intent, { max: 255 }),
      token: textParam(search.token, { max: 100 }),
    }),
  component: function EmbeddedOrderRoute() {
    const { orderId } = embeddedOrderRoute.useParams();
    const search = embeddedOrderRoute.useSearch();
    const returnedFromPayment = Boolean(search.paid || search.payment_intent);
    if (search.token) return <OrderPage orderId={orderId} accessToken={search.token} returnedFromPayment={returnedFromPayment} />;
    return (
      <RequireSession>
        <OrderPage orderId={orderId} returnedFromPayment={returnedFromPayment} />
      </RequireSession>
    );
  },
});

const routeTree = rootRoute.addChildren([
  signedInRoute.addChildren([...manageRoutes, accountRoute, myTicketsRoute]),
  orderRoute,
  embeddedOrderRoute,
  guestWaitlistRoute,
  incomingTransferRoute,
  heldTicketRoute,
  homeRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  publicEventRoute,
  embeddedEventRoute,
  accessibilityRoute,
]);

/**
 * The app's router: in the browser on its address bar, on the server (the first view of a public
 * page, entry-server.tsx) on the one address asked for.
 */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { queryClient: undefined! },
    defaultPreload: 'intent',
    // Inside the shell, so the header and its links stay usable when a page fails.
    defaultErrorComponent: RouteError,
    // In the browser; on the server it would add a script of its own to the first view.
    scrollRestoration: !history,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /** The lazy parts a route's page draws in the first view the server sends (by source path, as the build's manifest names them). */
    firstViewParts?: string[];
  }
}
