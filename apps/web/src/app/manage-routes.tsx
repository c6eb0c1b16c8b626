import { createRoute } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { BackLink, ButtonLink } from '../lib/links';
import { lazyScreen } from './lazy-screen';
import { signedInRoute } from './signed-in-route';

// The organizers' screens (/manage/…): under the signed-in guard (signed-in-route.tsx), each a chunk of its own loaded when
// first visited (decision 0042).

const OrgsPage = lazyScreen(() => import('../features/orgs/orgs-page'), 'OrgsPage');
const MembersPage = lazyScreen(() => import('../features/orgs/members-page'), 'MembersPage');
const ApiKeysPage = lazyScreen(() => import('../features/api-keys/api-keys-page'), 'ApiKeysPage');
const OrgEventsPage = lazyScreen(() => import('../features/events/org-events-page'), 'OrgEventsPage');
const EventEditorPage = lazyScreen(() => import('../features/events/event-editor-page'), 'EventEditorPage');
const ScannerPage = lazyScreen(() => import('../features/checkin/scanner-page'), 'ScannerPage');
const CheckInSummary = lazyScreen(() => import('../features/checkin/check-in-summary'), 'CheckInSummary');
const EventOrders = lazyScreen(() => import('../features/orders/event-orders'), 'EventOrders');
const OrderDetailPage = lazyScreen(() => import('../features/orders/order-detail-page'), 'OrderDetailPage');
const EventExports = lazyScreen(() => import('../features/exports/event-exports'), 'EventExports');
const EventAnalyticsPage = lazyScreen(() => import('../features/analytics/event-analytics-page'), 'EventAnalyticsPage');
const OrgAnalyticsPage = lazyScreen(() => import('../features/analytics/org-analytics-page'), 'OrgAnalyticsPage');
const EventCodesPage = lazyScreen(() => import('../features/codes/event-codes-page'), 'EventCodesPage');
const EventQuestionsPage = lazyScreen(() => import('../features/questions/event-questions-page'), 'EventQuestionsPage');
const WaitlistPage = lazyScreen(() => import('../features/waitlist/waitlist-page'), 'WaitlistPage');
const TransfersPage = lazyScreen(() => import('../features/transfers/transfers-page'), 'TransfersPage');
const EventMessagesPage = lazyScreen(() => import('../features/messages/event-messages-page'), 'EventMessagesPage');
const ImportPage = lazyScreen(() => import('../features/imports/import-page'), 'ImportPage');

const orgsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage',
  component: () => <OrgsPage />,
});

const orgEventsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/orgs/$organizationId',
  component: function OrgEventsRoute() {
    const { organizationId } = orgEventsRoute.useParams();
    return <OrgEventsPage organizationId={organizationId} />;
  },
});

const orgMembersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/orgs/$organizationId/members',
  component: function OrgMembersRoute() {
    const { organizationId } = orgMembersRoute.useParams();
    return <MembersPage organizationId={organizationId} />;
  },
});

const orgApiKeysRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/orgs/$organizationId/api',
  component: function OrgApiKeysRoute() {
    const { organizationId } = orgApiKeysRoute.useParams();
    return <ApiKeysPage organizationId={organizationId} />;
  },
});

const scannerRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/scan',
  component: function ScannerRoute() {
    const { eventId } = scannerRoute.useParams();
    return <ScannerPage eventId={eventId} />;
  },
});

const eventEditorRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId',
  component: function EventEditorRoute() {
    const { eventId } = eventEditorRoute.useParams();
    return (
      <EventEditorPage
        eventId={eventId}
        door={(isAdmin) => (
          <>
            <CheckInSummary eventId={eventId} />
            <EventExports
              eventId={eventId}
              door={!isAdmin}
              importLink={
                isAdmin && (
                  <ButtonLink to="/manage/events/$eventId/import" params={{ eventId }} variant="light">
                    <FormattedMessage id="exports.import" defaultMessage="Import a guest list" />
                  </ButtonLink>
                )
              }
            />
          </>
        )}
        admin={<EventOrders eventId={eventId} />}
      />
    );
  },
});

const importRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/import',
  component: function ImportRoute() {
    const { eventId } = importRoute.useParams();
    return (
      <ImportPage
        eventId={eventId}
        backLink={
          <BackLink to="/manage/events/$eventId" params={{ eventId }}>
            <FormattedMessage id="imports.back" defaultMessage="Back to the event" />
          </BackLink>
        }
      />
    );
  },
});

const eventAnalyticsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/analytics',
  component: function EventAnalyticsRoute() {
    const { eventId } = eventAnalyticsRoute.useParams();
    return <EventAnalyticsPage eventId={eventId} />;
  },
});

const eventCodesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/codes',
  component: function EventCodesRoute() {
    const { eventId } = eventCodesRoute.useParams();
    return <EventCodesPage eventId={eventId} />;
  },
});

const eventQuestionsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/questions',
  component: function EventQuestionsRoute() {
    const { eventId } = eventQuestionsRoute.useParams();
    return <EventQuestionsPage eventId={eventId} />;
  },
});

const eventWaitlistRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/waitlist',
  component: function EventWaitlistRoute() {
    const { eventId } = eventWaitlistRoute.useParams();
    return <WaitlistPage eventId={eventId} />;
  },
});

const eventTransfersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/transfers',
  component: function EventTransfersRoute() {
    const { eventId } = eventTransfersRoute.useParams();
    return <TransfersPage eventId={eventId} />;
  },
});

const eventMessagesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/messages',
  component: function EventMessagesRoute() {
    const { eventId } = eventMessagesRoute.useParams();
    return <EventMessagesPage eventId={eventId} />;
  },
});

const orgAnalyticsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/orgs/$organizationId/analytics',
  component: function OrgAnalyticsRoute() {
    const { organizationId } = orgAnalyticsRoute.useParams();
    return <OrgAnalyticsPage organizationId={organizationId} />;
  },
});

const orderDetailRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/manage/events/$eventId/orders/$orderId',
  component: function OrderDetailRoute() {
    const { eventId, orderId } = orderDetailRoute.useParams();
    return <OrderDetailPage eventId={eventId} orderId={orderId} />;
  },
});

export const manageRoutes = [
  orgApiKeysRoute,
  orgsRoute,
  orgEventsRoute,
  orgMembersRoute,
  scannerRoute,
  eventEditorRoute,
  importRoute,
  eventAnalyticsRoute,
  eventCodesRoute,
  eventQuestionsRoute,
  eventWaitlistRoute,
  eventTransfersRoute,
  eventMessagesRoute,
  orgAnalyticsRoute,
  orderDetailRoute,
];
