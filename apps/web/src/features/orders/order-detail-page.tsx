import { formatOrderReference, orderDetail, shownOrderStatus, type OrderDetailRow } from '@admit/shared/orders';
import { Badge, Button, Card, Checkbox, Grid, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { personLabel, shownContact } from '@admit/shared/people';
import { FormattedMessage, useIntl } from 'react-intl';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { usePageTitle } from '../../lib/page-title';
import { TicketsPdfLink } from '../../lib/tickets-pdf-link';
import { AnswerList } from '../../lib/answers';
import { formatMoney } from '../../lib/money';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { LineCodeNote } from '../../lib/discount-text';
import { OrderStatusBadge } from './order-status-badge';
import { OrderTimeline } from './order-timeline';
import { RefundDialog, refundAmount, type RefundChoice } from './refund-dialog';

/**
 * One order for its event's admins, live: the buyer, the tickets (chosen ones can be refunded),
 * what was paid and given back, and the payment timeline.
 */
export function OrderDetailPage({ eventId, orderId }: { eventId: string; orderId: string }) {
  const intl = useIntl();
  const { rows, error } = useLiveQuery(orderDetail, { orderId });
  const [selected, setSelected] = useState<string[]>([]);
  const [choice, setChoice] = useState<RefundChoice | null>(null);
  const shown = rows?.[0];
  usePageTitle(
    shown &&
      intl.formatMessage(
        { id: 'orderDetail.tabTitle', defaultMessage: 'Order {reference} · {event}' },
        { reference: formatOrderReference(shown.id), event: shown.eventTitle },
      ),
  );
  if (error) return <ErrorState error={error} />;
  const order = rows?.[0];
  if (!order) return <PageLoader />;

  const valid = order.tickets.filter((ticket) => ticket.status === 'valid');
  // A ticket refunded meanwhile (here or by someone else) drops out of the selection.
  const chosen = valid.filter((ticket) => selected.includes(ticket.id));
  const refundable = (order.status === 'paid' || order.status === 'partially_refunded') && valid.length > 0;
  const money = (minor: number) => formatMoney(intl.locale, minor, order.currency);
  const toggle = (ticketId: string, on: boolean) =>
    setSelected((now) => (on ? [...now, ticketId] : now.filter((id) => id !== ticketId)));

  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="orderDetail.back" defaultMessage="{event}" values={{ event: order.eventTitle }} />
      </BackLink>
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Title order={1}>{personLabel({ name: order.buyerName, email: order.email })}</Title>
          <OrderStatusBadge status={shownOrderStatus(order)} size="lg" aria-live="polite" data-testid="order-status" />
        </Group>
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <FormattedMessage
            id="orderDetail.subtitle"
            defaultMessage="Order {reference} · {email} · ordered {when}"
            values={{
              reference: <strong>{formatOrderReference(order.id)}</strong>,
              email: shownContact(order.email),
              when: (
                <time dateTime={order.createdAt}>
                  {intl.formatDate(order.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
                </time>
              ),
            }}
          />
        </Text>
      </Stack>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card withBorder padding="lg">
              <Stack gap="md">
                <Group justify="space-between" gap="xs">
                  <Title order={2} size="h4">
                    <FormattedMessage id="orderDetail.tickets" defaultMessage="Tickets" />
                  </Title>
                  {valid.length > 0 && <TicketsPdfLink orderId={order.id} size="xs" />}
                </Group>
                <TicketsTable order={order} selectable={refundable} selected={selected} onToggle={toggle} />
                {refundable && (
                  <Group gap="sm">
                    <Button
                      color="red"
                      variant="light"
                      disabled={chosen.length === 0}
                      onClick={() => setChoice({ whole: false, tickets: chosen })}
                    >
                      {chosen.length === 0 ? (
                        <FormattedMessage id="orderDetail.refundSelectedNone" defaultMessage="Refund selected tickets" />
                      ) : (
                        <FormattedMessage
                          id="orderDetail.refundSelected"
                          defaultMessage="{count, plural, one {Refund # ticket ({amount})} other {Refund # tickets ({amount})}}"
                          values={{ count: chosen.length, amount: money(refundAmount(order, chosen)) }}
                        />
                      )}
                    </Button>
                    <Button color="red" variant="subtle" onClick={() => setChoice({ whole: true, tickets: valid })}>
                      {valid.length < order.tickets.length ? (
                        <FormattedMessage id="orderDetail.refundRest" defaultMessage="Refund all remaining tickets" />
                      ) : (
                        <FormattedMessage id="orderDetail.refundWhole" defaultMessage="Refund the whole order" />
                      )}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Card>
            <PaymentCard order={order} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder padding="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                <FormattedMessage id="orderDetail.timeline" defaultMessage="Payment timeline" />
              </Title>
              {order.activity.length === 0 ? (
                <Text c="dimmed" size="sm">
                  <FormattedMessage id="orderDetail.timeline.empty" defaultMessage="Nothing recorded yet." />
                </Text>
              ) : (
                <OrderTimeline order={order} />
              )}
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <RefundDialog
        order={order}
        choice={choice}
        onClose={() => setChoice(null)}
        onRefunded={() => {
          setChoice(null);
          setSelected([]);
        }}
      />
    </Stack>
  );
}

function TicketsTable({
  order,
  selectable,
  selected,
  onToggle,
}: {
  order: OrderDetailRow;
  selectable: boolean;
  selected: string[];
  onToggle(ticketId: string, on: boolean): void;
}) {
  const intl = useIntl();
  return (
    <Table verticalSpacing="sm" aria-label={intl.formatMessage({ id: 'orderDetail.tickets', defaultMessage: 'Tickets' })}>
      <Table.Thead>
        <Table.Tr>
          {selectable && (
            <Table.Th w={40}>
              <VisuallyHidden>
                <FormattedMessage id="orderDetail.col.select" defaultMessage="Select" />
              </VisuallyHidden>
            </Table.Th>
          )}
          <Table.Th>
            <FormattedMessage id="orderDetail.col.ticket" defaultMessage="Ticket" />
          </Table.Th>
          <Table.Th ta="end">
            <FormattedMessage id="orderDetail.col.price" defaultMessage="Price" />
          </Table.Th>
          <Table.Th>
            <FormattedMessage id="orderDetail.col.status" defaultMessage="Status" />
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {order.tickets.map((ticket, index) => {
          const isValid = ticket.status === 'valid';
          return (
            <Table.Tr key={ticket.id} c={isValid ? undefined : 'dimmed'}>
              {selectable && (
                <Table.Td>
                  {isValid && (
                    <Checkbox
                      checked={selected.includes(ticket.id)}
                      onChange={(event) => onToggle(ticket.id, event.currentTarget.checked)}
                      aria-label={intl.formatMessage(
                        { id: 'orderDetail.selectTicket', defaultMessage: 'Refund ticket {number}: {type}, {holder}' },
                        { number: index + 1, type: ticket.ticketTypeName, holder: ticket.holderName },
                      )}
                    />
                  )}
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm" fw={500} td={isValid ? undefined : 'line-through'}>
                  {ticket.ticketTypeName}
                </Text>
                <Text size="xs" c="dimmed">
                  {ticket.holderName}
                </Text>
                <AnswerList answers={ticket.answers} size="xs" />
              </Table.Td>
              <Table.Td ta="end">
                {ticket.price === 0 ? (
                  <FormattedMessage id="orderDetail.free" defaultMessage="Free" />
                ) : (
                  formatMoney(intl.locale, ticket.price, order.currency)
                )}
              </Table.Td>
              {/* As wide as its badge: a ticket's answers make the first column long on a phone. */}
              <Table.Td style={{ minWidth: 88 }}>
                <Badge variant="light" color={isValid ? 'green' : 'gray'} style={{ overflow: 'visible' }}>
                  {isValid ? (
                    <FormattedMessage id="orderDetail.ticket.valid" defaultMessage="Valid" />
                  ) : (
                    <FormattedMessage id="orderDetail.ticket.void" defaultMessage="Void" />
                  )}
                </Badge>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function PaymentCard({ order }: { order: OrderDetailRow }) {
  const intl = useIntl();
  const money = (minor: number) => formatMoney(intl.locale, minor, order.currency);
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            <FormattedMessage id="orderDetail.payment" defaultMessage="Payment" />
          </Title>
          {order.paymentProvider === 'sandbox' && (
            <Badge variant="outline" color="gray">
              <FormattedMessage id="orderDetail.sandbox" defaultMessage="Test payments — no money moves" />
            </Badge>
          )}
        </Group>
        <Stack gap={6} component="dl" m={0}>
          {order.lines.map((line) => (
            <Row
              key={line.ticketTypeId}
              label={
                <>
                  <FormattedMessage
                    id="orderDetail.line"
                    defaultMessage="{quantity, number} × {type} at {price}"
                    values={{
                      quantity: line.quantity,
                      type: line.ticketTypeName,
                      price:
                        line.unitPrice === 0
                          ? intl.formatMessage({ id: 'orderDetail.free', defaultMessage: 'Free' })
                          : money(line.unitPrice),
                    }}
                  />
                  <LineCodeNote line={line} currency={order.currency} />
                </>
              }
              value={money(line.quantity * line.unitPrice)}
            />
          ))}
          <Row
            label={<FormattedMessage id="orderDetail.total" defaultMessage="Total" />}
            value={money(order.total)}
            strong
            ruled
          />
          {order.refundedAmount > 0 && (
            <>
              <Row
                label={<FormattedMessage id="orderDetail.refunded" defaultMessage="Refunded" />}
                value={intl.formatMessage(
                  { id: 'orderDetail.refundedValue', defaultMessage: '− {amount}' },
                  { amount: money(order.refundedAmount) },
                )}
                color="red"
              />
              <Row
                label={<FormattedMessage id="orderDetail.kept" defaultMessage="Kept" />}
                value={money(order.total - order.refundedAmount)}
                strong
              />
            </>
          )}
        </Stack>
        {order.paymentRef && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <FormattedMessage
              id="orderDetail.paymentRef"
              defaultMessage="{provider, select, stripe {Stripe payment {ref}} other {Payment {ref}}}"
              values={{ provider: order.paymentProvider ?? '', ref: order.paymentRef }}
            />
          </Text>
        )}
        {order.refunds.length > 0 && (
          <>
            <Title order={3} size="h5" mt="sm">
              <FormattedMessage id="orderDetail.refunds" defaultMessage="Refunds" />
            </Title>
            <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {order.refunds.map((refund) => (
                <li key={refund.id}>
                  <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                    <div>
                      <Text size="sm">
                        <FormattedMessage
                          id="orderDetail.refundLine"
                          defaultMessage="{amount} · {tickets, plural, =0 {no tickets} one {# ticket} other {# tickets}}"
                          values={{ amount: money(refund.amount), tickets: refund.ticketCount }}
                        />
                      </Text>
                      <Text size="xs" c="dimmed">
                        {refund.reason}
                      </Text>
                    </div>
                    <RefundStatusBadge status={refund.status} />
                  </Group>
                </li>
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}

function RefundStatusBadge({ status }: { status: OrderDetailRow['refunds'][number]['status'] }) {
  const color = status === 'succeeded' ? 'green' : status === 'failed' || status === 'canceled' ? 'red' : 'yellow';
  return (
    <Badge variant="light" color={color} style={{ flexShrink: 0 }}>
      <FormattedMessage
        id="orderDetail.refundStatus"
        defaultMessage="{status, select, succeeded {Refunded} failed {Failed} canceled {Cancelled} requires_action {Needs action} other {Pending}}"
        values={{ status }}
      />
    </Badge>
  );
}

interface RowProps {
  label: ReactNode;
  value: string;
  strong?: boolean;
  color?: string;
  /** A line above the row, as above a total (a rule of its own is not allowed between a list's terms). */
  ruled?: boolean;
}

function Row({ label, value, strong, color, ruled }: RowProps) {
  return (
    <Group
      justify="space-between"
      gap="xs"
      wrap="nowrap"
      align="baseline"
      pt={ruled ? 6 : undefined}
      style={ruled ? { borderBlockStart: '1px solid var(--mantine-color-default-border)' } : undefined}
    >
      <Text component="dt" size="sm" fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" fw={strong ? 600 : undefined} c={color} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
}
