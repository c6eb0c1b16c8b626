import {
  confirmGuestOrder,
  confirmPayment,
  formatOrderReference,
  myOrder,
  shownOrderStatus,
  type MyOrderRow,
} from '@admit/shared/orders';
import { Alert, Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { localizeOrder } from '../../lib/event-language';
import { useLocale } from '../../lib/i18n';
import { AnchorLink, ButtonLink } from '../../lib/links';
import { sendStep } from '../../lib/beacon';
import { useLiveQuery } from '../../lib/live';
import { usePageTitle } from '../../lib/page-title';
import { TicketsPdfLink } from '../../lib/tickets-pdf-link';
import { ResponsivePicture } from '../../lib/picture';
import { formatMoney } from '../../lib/money';
import { ErrorSentence, ErrorState, PageLoader } from '../../lib/page-state';
import { LineCodeNote } from '../../lib/discount-text';
import { AttendeeAnswers } from './attendee-answers';
import { PaymentStep } from './payment-step';

/**
 * One order of the signed-in buyer, or the one a guest's token opens: while it is pending, the
 * payment step with the hold's countdown (a guest's free places: confirmed by opening the emailed
 * link, which is this page); afterwards what became of it (paid, expired, cancelled, refunded),
 * updated live. `returnedFromPayment` is set when Stripe sends the buyer back (3-D Secure): the server checks.
 */
export function OrderPage({
  orderId,
  accessToken,
  returnedFromPayment,
  holders,
  messages,
}: {
  orderId: string;
  /** A guest's: the token from their email (or from the checkout, for an order to pay). */
  accessToken?: string;
  returnedFromPayment: boolean;
  /** Once paid: who each ticket is for (the tickets feature's), for the buyer or the guest with the token. */
  holders?: (order: ReturnType<typeof localizeOrder<MyOrderRow>>, accessToken: string | undefined) => ReactNode;
  /** Once paid: what the organizer wrote to the holders of its tickets (the messages feature's). */
  messages?: (eventId: string) => ReactNode;
}) {
  const { rows, error } = useLiveQuery(myOrder, accessToken ? { orderId, accessToken } : { orderId });
  const intl = useIntl();
  const { locale } = useLocale();
  usePageTitle(intl.formatMessage({ id: 'order.tabTitle', defaultMessage: 'Your order' }));
  const confirm = useMutation({ mutationFn: () => callFunction(confirmPayment, { orderId, accessToken }) });
  // A guest's free places: opening the emailed link is the confirmation (once per visit).
  const confirmEmail = useMutation({
    mutationFn: (token: string) => callFunction(confirmGuestOrder, { orderId, accessToken: token }),
  });
  const awaitingLink = Boolean(accessToken) && rows?.[0]?.status === 'pending' && rows[0].total === 0;
  const confirmedEmail = useRef(false);
  useEffect(() => {
    if (awaitingLink && accessToken && !confirmedEmail.current) {
      confirmedEmail.current = true;
      confirmEmail.mutate(accessToken);
    }
  }, [awaitingLink, accessToken, confirmEmail]);
  const checkedReturn = useRef(false);
  useEffect(() => {
    if (returnedFromPayment && !checkedReturn.current) {
      checkedReturn.current = true;
      confirm.mutate();
    }
  }, [returnedFromPayment, confirm]);

  // Paid on this visit (seen pending, or back from the provider's page), not an old order opened again.
  const sawPending = useRef(false);
  useEffect(() => {
    const seen = rows?.[0];
    if (seen?.status === 'pending') sawPending.current = true;
    else if (seen?.status === 'paid' && (sawPending.current || returnedFromPayment)) sendStep(seen.eventId, 'paid', seen.id);
  }, [rows, returnedFromPayment]);

  if (error) return <ErrorState error={error} />;
  if (!rows?.[0]) return <PageLoader />;
  // The event's title and the lines' names in the buyer's language when the event has it.
  const order = localizeOrder(rows[0], locale);

  return (
    <Stack gap="lg" maw={640} mx="auto" w="100%">
      {order.eventCover && (
        <ResponsivePicture
          picture={order.eventCover}
          alt=""
          crop="wide"
          sizes="(min-width: 40em) 640px, 100vw"
          priority
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      )}
      <Stack gap={4}>
        <AnchorLink to="/e/$slug" params={{ slug: order.eventSlug }} size="sm" lang={order.shownIn} dir="auto">
          {order.eventTitle}
        </AnchorLink>
        <Group justify="space-between" align="center">
          <Title order={1}>
            <FormattedMessage id="order.title" defaultMessage="Your order" />
          </Title>
          <OrderStatusBadge status={shownOrderStatus(order)} />
        </Group>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="order.reference"
            defaultMessage="Order {reference}: quote it when you contact the organizer."
            values={{ reference: <strong>{formatOrderReference(order.id)}</strong> }}
          />
        </Text>
      </Stack>
      <OrderSummary order={order} />
      {order.status === 'pending' && order.total === 0 ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            <FormattedMessage id="order.confirmingEmail" defaultMessage="Confirming your email address…" />
          </Text>
        </Group>
      ) : order.status === 'pending' ? (
        <PaymentStep order={order} accessToken={accessToken} onPaid={() => confirm.mutate()} confirming={confirm.isPending} />
      ) : null}
      {confirmEmail.isError && (
        <Alert color="red" role="alert">
          <ErrorSentence error={confirmEmail.error} />
        </Alert>
      )}
      <Outcome order={order} accessToken={accessToken} />
      {(order.status === 'paid' || order.status === 'partially_refunded') && holders?.(order, accessToken)}
      <AttendeeAnswers order={order} accessToken={accessToken} />
      {order.status !== 'pending' && order.status !== 'expired' && messages?.(order.eventId)}
    </Stack>
  );
}

function OrderStatusBadge({ status }: { status: MyOrderRow['status'] }) {
  const intl = useIntl();
  const labels: Record<MyOrderRow['status'], { label: string; color: string }> = {
    pending: { label: intl.formatMessage({ id: 'order.status.pending', defaultMessage: 'Awaiting payment' }), color: 'yellow' },
    paid: { label: intl.formatMessage({ id: 'order.status.paid', defaultMessage: 'Paid' }), color: 'green' },
    expired: { label: intl.formatMessage({ id: 'order.status.expired', defaultMessage: 'Expired' }), color: 'gray' },
    cancelled: { label: intl.formatMessage({ id: 'order.status.cancelled', defaultMessage: 'Cancelled' }), color: 'gray' },
    refunded: { label: intl.formatMessage({ id: 'order.status.refunded', defaultMessage: 'Refunded' }), color: 'blue' },
    partially_refunded: {
      label: intl.formatMessage({ id: 'order.status.partiallyRefunded', defaultMessage: 'Partly refunded' }),
      color: 'blue',
    },
  };
  const { label, color } = labels[status];
  return (
    <Badge size="lg" color={color} variant="light" data-testid="order-status">
      {label}
    </Badge>
  );
}

function OrderSummary({ order }: { order: MyOrderRow & { shownIn: string } }) {
  const intl = useIntl();
  const money = (minor: number) => formatMoney(intl.locale, minor, order.currency);
  return (
    <Card withBorder padding="lg">
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <FormattedMessage id="order.ticket" defaultMessage="Ticket" />
            </Table.Th>
            <Table.Th ta="end">
              <FormattedMessage id="order.quantity" defaultMessage="Quantity" />
            </Table.Th>
            <Table.Th ta="end">
              <FormattedMessage id="order.amount" defaultMessage="Amount" />
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.lines.map((line) => (
            <Table.Tr key={line.ticketTypeId}>
              <Table.Td>
                <Text fw={600} lang={order.shownIn}>
                  {line.ticketTypeName}
                </Text>
                <Text size="xs" c="dimmed">
                  {line.unitPrice === 0 ? (
                    <FormattedMessage id="picker.free" defaultMessage="Free" />
                  ) : (
                    <FormattedMessage id="order.each" defaultMessage="{price} each" values={{ price: money(line.unitPrice) }} />
                  )}
                </Text>
                <LineCodeNote line={line} currency={order.currency} />
              </Table.Td>
              <Table.Td ta="end">{line.quantity}</Table.Td>
              <Table.Td ta="end">{money(line.unitPrice * line.quantity)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th colSpan={2}>
              <FormattedMessage id="order.total" defaultMessage="Total" />
            </Table.Th>
            <Table.Th ta="end" data-testid="order-total">
              {money(order.total)}
            </Table.Th>
          </Table.Tr>
          {order.resold.map((resold, index) => (
            <Table.Tr key={`${resold.soldAt}-${index}`} data-testid="order-resold">
              <Table.Td colSpan={2}>
                <FormattedMessage
                  id="order.resold"
                  defaultMessage="{type} ticket resold on {date}: {amount} back to your card"
                  values={{
                    type: order.lines.find((line) => line.ticketTypeId === resold.ticketTypeId)?.ticketTypeName ?? '',
                    date: intl.formatDate(resold.soldAt, { dateStyle: 'medium', timeZone: order.timeZone }),
                    amount: money(resold.payout),
                  }}
                />
              </Table.Td>
              <Table.Td />
            </Table.Tr>
          ))}
          {order.refundedAmount > 0 && (
            <Table.Tr>
              <Table.Td colSpan={2}>
                <FormattedMessage id="order.refunded" defaultMessage="Refunded" />
              </Table.Td>
              <Table.Td ta="end" data-testid="order-refunded">
                {money(-order.refundedAmount)}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tfoot>
      </Table>
    </Card>
  );
}

function Outcome({ order, accessToken }: { order: MyOrderRow; accessToken?: string }) {
  const intl = useIntl();
  const money = (minor: number) => formatMoney(intl.locale, minor, order.currency);
  const allGivenAway = order.tickets.length > 0 && order.tickets.every((ticket) => ticket.givenAway);
  switch (shownOrderStatus(order)) {
    case 'paid':
    case 'partially_refunded':
      return (
        <Alert
          color="green"
          role="status"
          title={
            order.total === 0
              ? intl.formatMessage({ id: 'picker.done.title', defaultMessage: 'Your tickets are ready' })
              : intl.formatMessage({ id: 'order.paid.title', defaultMessage: 'Payment received — your tickets are ready' })
          }
        >
          <Stack gap="xs">
            <FormattedMessage
              id="order.paid.body"
              defaultMessage="We sent a confirmation with your tickets to your email address."
            />
            {/* Every ticket sent on and accepted (decision 0065): none is the buyer's to show or print. */}
            {allGivenAway && (
              <Text inherit>
                <FormattedMessage
                  id="order.paid.allGivenAway"
                  defaultMessage="You sent every ticket of this order on: they are their new holders’ now."
                />
              </Text>
            )}
            {!allGivenAway && (
              <Group gap="xs">
                {/* A guest has no My tickets: the PDF and the emailed link are their tickets. */}
                {!accessToken && (
                  <ButtonLink to="/tickets" size="xs" variant="white">
                    <FormattedMessage id="picker.done.link" defaultMessage="Show my tickets" />
                  </ButtonLink>
                )}
                <TicketsPdfLink orderId={order.id} accessToken={accessToken} size="xs" variant="white" />
              </Group>
            )}
          </Stack>
        </Alert>
      );
    case 'expired':
      return (
        <Alert
          color="gray"
          role="status"
          title={intl.formatMessage({ id: 'order.expired.title', defaultMessage: 'This order expired' })}
        >
          <FormattedMessage
            id="order.expired.body"
            defaultMessage="It was not paid in time, so its tickets went back on sale. No money was taken."
          />
        </Alert>
      );
    case 'cancelled':
      if (order.status === 'refunded')
        return (
          <Alert
            color="gray"
            role="status"
            title={intl.formatMessage({ id: 'order.cancelled.title', defaultMessage: 'This order was cancelled' })}
          >
            <FormattedMessage
              id="order.cancelledFree.body"
              defaultMessage="Its tickets are no longer valid. They were free, so there is nothing to refund."
            />
          </Alert>
        );
      return order.refundedAmount > 0 ? (
        <Alert
          color="orange"
          role="status"
          title={intl.formatMessage({ id: 'order.late.title', defaultMessage: 'Your payment was refunded' })}
        >
          <FormattedMessage
            id="order.late.body"
            defaultMessage="Your payment arrived after your hold had ended and the tickets were gone. We refunded {amount} in full."
            values={{ amount: money(order.refundedAmount) }}
          />
        </Alert>
      ) : (
        <Alert
          color="gray"
          role="status"
          title={intl.formatMessage({ id: 'order.cancelled.title', defaultMessage: 'This order was cancelled' })}
        >
          <FormattedMessage id="order.cancelled.body" defaultMessage="Its tickets went back on sale. No money was taken." />
        </Alert>
      );
    case 'refunded':
      // Every refund came from tickets resold (decision 0066): said as a sale, not as a refund.
      if (order.resold.length > 0 && order.resold.reduce((sum, one) => sum + one.payout, 0) === order.refundedAmount)
        return (
          <Alert
            color="blue"
            role="status"
            title={intl.formatMessage(
              {
                id: 'order.resoldAll.title',
                defaultMessage: '{count, plural, one {Your ticket was resold} other {Your tickets were resold}}',
              },
              { count: order.resold.length },
            )}
          >
            <FormattedMessage
              id="order.resoldAll.body"
              defaultMessage="{count, plural, one {Another fan bought it at the price you paid, and {amount} went back to your card. It is no longer valid.} other {Other fans bought them at the price you paid, and {amount} went back to your card. They are no longer valid.}}"
              values={{ count: order.resold.length, amount: money(order.refundedAmount) }}
            />
          </Alert>
        );
      return (
        <Alert
          color="blue"
          role="status"
          title={intl.formatMessage({ id: 'order.refundedAll.title', defaultMessage: 'This order was refunded' })}
        >
          <FormattedMessage
            id="order.refundedAll.body"
            defaultMessage="We refunded {amount}. Its tickets are no longer valid."
            values={{ amount: money(order.refundedAmount) }}
          />
        </Alert>
      );
    default:
      return null;
  }
}
