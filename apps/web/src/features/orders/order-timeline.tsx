import type { OrderDetailRow } from '@admit/shared/orders';
import { shownContact } from '@admit/shared/people';
import { Text, Timeline } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { formatMoney } from '../../lib/money';

type Activity = OrderDetailRow['activity'][number];
type Detail = Activity['detail'];

const numberIn = (detail: Detail, key: string) => (typeof detail[key] === 'number' ? detail[key] : 0);
const textIn = (detail: Detail, key: string) => (typeof detail[key] === 'string' ? detail[key] : '');
/** An amount in minor units, written as a number or as its digits (a resale's offer keeps strings). */
const amountIn = (detail: Detail, key: string) => Number(detail[key]) || 0;

const colors: Partial<Record<Activity['kind'], string>> = {
  paid: 'green',
  refund_succeeded: 'green',
  payment_failed: 'red',
  refund_failed: 'red',
  refund_requested: 'orange',
  late_payment_refunded: 'orange',
  ticket_transferred: 'blue',
  ticket_resold: 'blue',
};

/** The payment timeline: what happened to the order, oldest first, in the viewer's language and time. */
export function OrderTimeline({ order }: { order: OrderDetailRow }) {
  const intl = useIntl();
  const money = (minor: number) => formatMoney(intl.locale, minor, order.currency);
  return (
    <Timeline bulletSize={14} lineWidth={2} active={order.activity.length - 1} role="list">
      {order.activity.map((line) => (
        <Timeline.Item
          key={line.id}
          role="listitem"
          color={colors[line.kind] ?? 'gray'}
          title={<Text size="sm">{describe(line, money, intl)}</Text>}
        >
          {extra(line) && (
            <Text size="sm" c="dimmed">
              {extra(line)}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {line.actorName ? (
              <FormattedMessage
                id="orderTimeline.whenBy"
                defaultMessage="{time} · by {name}"
                values={{ time: <When at={line.at} />, name: line.actorName }}
              />
            ) : (
              <When at={line.at} />
            )}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

function When({ at }: { at: string }) {
  const intl = useIntl();
  return <time dateTime={at}>{intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}

/** One sentence for each kind of line, from its details. */
function describe(line: Activity, money: (minor: number) => string, intl: IntlShape): ReactNode {
  const { detail } = line;
  const amount = money(numberIn(detail, 'amount'));
  const tickets = numberIn(detail, 'tickets');
  const fromProvider = detail.source === 'provider';
  switch (line.kind) {
    case 'created':
      return intl.formatMessage({ id: 'orderTimeline.created', defaultMessage: 'Order placed' });
    case 'payment_started':
      return intl.formatMessage({ id: 'orderTimeline.paymentStarted', defaultMessage: 'The buyer started paying' });
    case 'payment_failed':
      return intl.formatMessage({ id: 'orderTimeline.paymentFailed', defaultMessage: 'The payment did not go through' });
    case 'paid':
      return detail.late === true
        ? intl.formatMessage(
            {
              id: 'orderTimeline.paidLate',
              defaultMessage: 'Paid {amount} after the hold had ended; the places were still free',
            },
            { amount },
          )
        : intl.formatMessage({ id: 'orderTimeline.paid', defaultMessage: 'Paid {amount}' }, { amount });
    case 'expired':
      return intl.formatMessage({ id: 'orderTimeline.expired', defaultMessage: 'The hold ended unpaid' });
    case 'cancelled':
      return intl.formatMessage({ id: 'orderTimeline.cancelled', defaultMessage: 'Cancelled' });
    case 'late_payment_refunded':
      return intl.formatMessage(
        {
          id: 'orderTimeline.latePaymentRefunded',
          defaultMessage: 'The payment came after the places were gone: {amount} refunded in full',
        },
        { amount },
      );
    case 'refund_requested':
      if (fromProvider)
        return intl.formatMessage(
          { id: 'orderTimeline.providerRefundPending', defaultMessage: 'Refund of {amount} made in Stripe’s dashboard, pending' },
          { amount },
        );
      return numberIn(detail, 'amount') === 0
        ? intl.formatMessage(
            {
              id: 'orderTimeline.ticketsVoided',
              defaultMessage: '{tickets, plural, one {# free ticket voided} other {# free tickets voided}}',
            },
            { tickets },
          )
        : intl.formatMessage(
            {
              id: 'orderTimeline.refundRequested',
              defaultMessage:
                '{tickets, plural, one {Refund of {amount} for # ticket requested} other {Refund of {amount} for # tickets requested}}',
            },
            { amount, tickets },
          );
    case 'refund_succeeded':
      return fromProvider
        ? intl.formatMessage(
            { id: 'orderTimeline.providerRefund', defaultMessage: '{amount} refunded in Stripe’s dashboard' },
            { amount },
          )
        : intl.formatMessage({ id: 'orderTimeline.refundSucceeded', defaultMessage: 'Refund of {amount} completed' }, { amount });
    case 'refund_failed':
      return intl.formatMessage({ id: 'orderTimeline.refundFailed', defaultMessage: 'Refund of {amount} failed' }, { amount });
    case 'webhook':
      return intl.formatMessage(
        { id: 'orderTimeline.webhook', defaultMessage: 'Stripe reported {type}' },
        { type: textIn(detail, 'type') },
      );
    case 'email_sent':
      return intl.formatMessage(
        {
          id: 'orderTimeline.emailSent',
          defaultMessage:
            '{kind, select, confirmation {Confirmation email sent to {to}} refund {Refund email sent to {to}} late_payment_refund {Late payment email sent to {to}} event_cancelled {Cancellation email sent to {to}} other {Email sent to {to}}}',
        },
        { kind: textIn(detail, 'kind'), to: shownContact(textIn(detail, 'to')) },
      );
    case 'holder_changed':
      return intl.formatMessage(
        { id: 'orderTimeline.holderChanged', defaultMessage: 'Ticket holder changed from {from} to {to}' },
        { from: textIn(detail, 'from'), to: textIn(detail, 'to') },
      );
    case 'confirmed':
      return intl.formatMessage({
        id: 'orderTimeline.confirmed',
        defaultMessage: 'The guest opened the emailed link: tickets issued',
      });
    case 'answers_changed':
      return intl.formatMessage({ id: 'orderTimeline.answersChanged', defaultMessage: 'The buyer changed a ticket’s answers' });
    case 'transfer_sent':
      return intl.formatMessage(
        { id: 'orderTimeline.transferSent', defaultMessage: 'Ticket {ticket} sent to {to}, waiting for them to accept' },
        { ticket: textIn(detail, 'ticket').toUpperCase(), to: shownContact(textIn(detail, 'to')) },
      );
    case 'transfer_cancelled':
      return intl.formatMessage(
        {
          id: 'orderTimeline.transferCancelled',
          defaultMessage:
            '{by, select, recipient {{to} declined the ticket sent to them} admin {An organizer withdrew the ticket sent to {to}} other {The ticket sent to {to} was taken back}}',
        },
        { by: textIn(detail, 'by'), to: shownContact(textIn(detail, 'to')) },
      );
    case 'ticket_transferred':
      return intl.formatMessage(
        { id: 'orderTimeline.ticketTransferred', defaultMessage: '{to} accepted the ticket from {from}: it has a new code' },
        { from: textIn(detail, 'from'), to: textIn(detail, 'to') },
      );
    case 'resale_listed':
      return intl.formatMessage(
        {
          id: 'orderTimeline.resaleListed',
          defaultMessage: 'Ticket {ticket} offered for resale at {price}, with a fee of {fee}',
        },
        {
          ticket: textIn(detail, 'ticket').toUpperCase(),
          price: money(amountIn(detail, 'price')),
          fee: money(amountIn(detail, 'fee')),
        },
      );
    case 'resale_withdrawn':
      return intl.formatMessage(
        { id: 'orderTimeline.resaleWithdrawn', defaultMessage: 'The offer to resell ticket {ticket} was taken back' },
        { ticket: textIn(detail, 'ticket').toUpperCase() },
      );
    case 'ticket_resold':
      return intl.formatMessage(
        {
          id: 'orderTimeline.ticketResold',
          defaultMessage:
            'Ticket {ticket} resold at {price}: it is void, and {payout} goes back to the buyer after the {fee} fee',
        },
        {
          ticket: textIn(detail, 'ticket').toUpperCase(),
          price: money(amountIn(detail, 'price')),
          fee: money(amountIn(detail, 'fee')),
          payout: money(amountIn(detail, 'payout')),
        },
      );
  }
}

/** A second line where the details have more to tell: the reason, or what became of the tickets. */
function extra(line: Activity): ReactNode {
  const { detail } = line;
  if (line.kind === 'refund_requested' && detail.source !== 'provider' && textIn(detail, 'reason'))
    return (
      <FormattedMessage
        id="orderTimeline.reason"
        defaultMessage="Reason: {reason}"
        values={{ reason: textIn(detail, 'reason') }}
      />
    );
  if (detail.source === 'provider' && numberIn(detail, 'tickets') > 0)
    return (
      <FormattedMessage
        id="orderTimeline.providerVoided"
        defaultMessage="The whole payment was refunded, so {tickets, plural, one {# ticket became} other {# tickets became}} void."
        values={{ tickets: numberIn(detail, 'tickets') }}
      />
    );
  if (line.kind === 'refund_failed' && detail.providerReason)
    return detail.ticketsRestored === false ? (
      <FormattedMessage
        id="orderTimeline.refusedTicketsVoid"
        defaultMessage="The payment provider refused it. The tickets stay void: their places were taken meanwhile."
      />
    ) : (
      <FormattedMessage
        id="orderTimeline.refused"
        defaultMessage="The payment provider refused it; the tickets are valid again."
      />
    );
  if (line.kind === 'refund_failed')
    return (
      <FormattedMessage
        id="orderTimeline.failedLater"
        defaultMessage="The money did not reach the buyer. The tickets stay void; give the money back another way."
      />
    );
  return null;
}
