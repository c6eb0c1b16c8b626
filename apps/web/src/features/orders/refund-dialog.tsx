import { refundOrder, type OrderDetailRow } from '@admit/shared/orders';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction, CallError } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { formatMoney } from '../../lib/money';

type Ticket = OrderDetailRow['tickets'][number];

/** What an admin is about to refund: the whole order (every valid ticket) or chosen tickets. */
export interface RefundChoice {
  whole: boolean;
  tickets: Ticket[];
}

/**
 * The money a refund gives back, as the server computes it: the chosen tickets' prices, never more
 * than what is left of the payment.
 */
export function refundAmount(order: OrderDetailRow, tickets: Ticket[]): number {
  const price = tickets.reduce((sum, ticket) => sum + ticket.price, 0);
  return Math.max(0, Math.min(price, order.total - order.refundedAmount));
}

/** Asks for a reason, shows what will be given back, and refunds. Focus goes to the reason when it opens. */
export function RefundDialog({
  order,
  choice,
  onClose,
  onRefunded,
}: {
  order: OrderDetailRow;
  choice: RefundChoice | null;
  onClose(): void;
  onRefunded(): void;
}) {
  // Kept while the dialog fades out; a new choice is a new form (a new idempotency key, an empty reason).
  const [shown, setShown] = useState<{ choice: RefundChoice; id: number } | null>(null);
  if (choice && shown?.choice !== choice) setShown({ choice, id: (shown?.id ?? 0) + 1 });
  return (
    <Modal opened={choice !== null} onClose={onClose} title={shown && <RefundTitle order={order} choice={shown.choice} />}>
      {shown && <RefundForm key={shown.id} order={order} choice={shown.choice} onCancel={onClose} onRefunded={onRefunded} />}
    </Modal>
  );
}

function RefundTitle({ order, choice }: { order: OrderDetailRow; choice: RefundChoice }) {
  const count = choice.tickets.length;
  if (!choice.whole)
    return (
      <FormattedMessage
        id="refund.title.tickets"
        defaultMessage="{count, plural, one {Refund # ticket} other {Refund # tickets}}"
        values={{ count }}
      />
    );
  return count < order.tickets.length ? (
    <FormattedMessage
      id="refund.title.rest"
      defaultMessage="{count, plural, one {Refund the remaining ticket} other {Refund the # remaining tickets}}"
      values={{ count }}
    />
  ) : (
    <FormattedMessage
      id="refund.title.whole"
      defaultMessage="{count, plural, one {Refund the whole order (# ticket)} other {Refund the whole order (# tickets)}}"
      values={{ count }}
    />
  );
}

function RefundForm({
  order,
  choice,
  onCancel,
  onRefunded,
}: {
  order: OrderDetailRow;
  choice: RefundChoice;
  onCancel(): void;
  onRefunded(): void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  // One key for every try of this refund: a retry after "unavailable" sends the same refund.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const amount = refundAmount(order, choice.tickets);
  const price = choice.tickets.reduce((sum, ticket) => sum + ticket.price, 0);
  const money = formatMoney(intl.locale, amount, order.currency);
  const form = useForm({
    initialValues: { reason: '' },
    validate: validateWith(refundOrder.input, intl, (values: { reason: string }) => ({
      orderId: order.id,
      reason: values.reason,
      idempotencyKey,
    })),
  });
  const mutation = useMutation({
    mutationFn: (reason: string) =>
      callFunction(refundOrder, {
        orderId: order.id,
        ticketIds: choice.whole ? undefined : choice.tickets.map((ticket) => ticket.id),
        reason,
        idempotencyKey,
      }),
    onSuccess: (result) => {
      notifications.show({
        color: 'green',
        message:
          result.amount === 0
            ? intl.formatMessage({ id: 'refund.done.free', defaultMessage: 'The tickets are void.' })
            : intl.formatMessage(
                { id: 'refund.done', defaultMessage: '{amount} refunded.' },
                { amount: formatMoney(intl.locale, result.amount, order.currency) },
              ),
      });
      onRefunded();
    },
    onError: (error) => {
      const reasonError = fieldErrorsOf(error).reason;
      if (reasonError) form.setFieldError('reason', reasonError);
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values.reason))} noValidate>
      <Stack>
        <Text size="sm">
          <FormattedMessage
            id="refund.effect"
            defaultMessage="{count, plural, one {The ticket becomes void and its place goes back on sale.} other {The # tickets become void and their places go back on sale.}}"
            values={{ count: choice.tickets.length }}
          />
        </Text>
        <Stack gap={2}>
          <Text size="sm" c="dimmed" id="refund-amount-label">
            <FormattedMessage id="refund.amount" defaultMessage="Given back to the buyer" />
          </Text>
          <Text size="xl" fw={700} aria-labelledby="refund-amount-label" data-testid="refund-amount">
            {money}
          </Text>
          {order.total === 0 || price === 0 ? (
            <Text size="sm" c="dimmed">
              <FormattedMessage id="refund.free" defaultMessage="These tickets were free: no money moves." />
            </Text>
          ) : (
            amount < price && (
              <Text size="sm" c="dimmed">
                <FormattedMessage
                  id="refund.capped"
                  defaultMessage="Part of the payment was refunded already, so this is what is left of it."
                />
              </Text>
            )
          )}
        </Stack>
        <Textarea
          label={intl.formatMessage({ id: 'refund.reason', defaultMessage: 'Reason' })}
          description={intl.formatMessage({
            id: 'refund.reason.description',
            defaultMessage: 'The buyer reads it in the email that tells them of the refund.',
          })}
          required
          autosize
          minRows={2}
          maxRows={6}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        {mutation.error && !fieldErrorsOf(mutation.error).reason && (
          <Alert color="red" role="alert">
            {refundErrorMessage(mutation.error) ?? errorMessage(mutation.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            <FormattedMessage id="refund.cancel" defaultMessage="Cancel" />
          </Button>
          <Button type="submit" color="red" loading={mutation.isPending}>
            {amount === 0 ? (
              <FormattedMessage
                id="refund.submit.free"
                defaultMessage="{count, plural, one {Void # ticket} other {Void # tickets}}"
                values={{ count: choice.tickets.length }}
              />
            ) : (
              <FormattedMessage id="refund.submit" defaultMessage="Refund {amount}" values={{ amount: money }} />
            )}
          </Button>
        </Group>
      </Stack>
    </form>
  );

  /** The refund's own failures, said in full; undefined for the general ones. */
  function refundErrorMessage(error: unknown): string | undefined {
    if (!(error instanceof CallError)) return undefined;
    const reason = failureOfError(error)?.reason;
    if (error.code === 'unavailable')
      return intl.formatMessage({
        id: 'refund.error.unavailable',
        defaultMessage:
          'The payment provider could not be reached. The tickets are void and the refund is recorded; press the button again to send it.',
      });
    if (reason === 'refund-refused')
      return intl.formatMessage({
        id: 'refund.error.refused',
        defaultMessage:
          'The payment provider refused this refund, most likely because the money was already given back in its dashboard. The order now shows what the provider knows; check it before you try again.',
      });
    if (error.code === 'failed-precondition')
      return intl.formatMessage({
        id: 'refund.error.notRefundable',
        defaultMessage: 'This order cannot be refunded any more.',
      });
    if (error.code === 'invalid-argument')
      return intl.formatMessage({
        id: 'refund.error.ticketsChanged',
        defaultMessage: 'Some of these tickets were refunded meanwhile. Close this and choose again.',
      });
    return undefined;
  }
}
