import { eventOrders, shownOrderStatus } from '@admit/shared/orders';
import { personLabel, shownContact } from '@admit/shared/people';
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnchorLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ScrollTable } from '../../lib/scroll-table';
import { formatMoney } from '../../lib/money';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { OrderStatusBadge } from './order-status-badge';

/** An event's orders for its organizers, newest first, updating live; each opens its detail. */
export function EventOrders({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows, isLoading, error } = useLiveQuery(eventOrders, { eventId });
  const columns = {
    when: intl.formatMessage({ id: 'orders.col.when', defaultMessage: 'When' }),
    tickets: intl.formatMessage({ id: 'orders.col.tickets', defaultMessage: 'Tickets' }),
    total: intl.formatMessage({ id: 'orders.col.total', defaultMessage: 'Total' }),
    status: intl.formatMessage({ id: 'orders.col.status', defaultMessage: 'Status' }),
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          <FormattedMessage id="orders.title" defaultMessage="Orders" />
        </Title>
        {error && <ErrorState error={error} />}
        {isLoading && <PageLoader />}
        {rows && rows.length === 0 && (
          <EmptyState title={intl.formatMessage({ id: 'orders.empty.title', defaultMessage: 'No orders yet' })}>
            <FormattedMessage id="orders.empty.body" defaultMessage="New orders appear here as they come in." />
          </EmptyState>
        )}
        {rows && rows.length > 0 && (
          <ScrollTable label={intl.formatMessage({ id: 'orders.table', defaultMessage: 'Orders' })} minWidth={560} stacked>
            <Table striped aria-label={intl.formatMessage({ id: 'orders.table', defaultMessage: 'Orders' })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <FormattedMessage id="orders.col.buyer" defaultMessage="Buyer" />
                  </Table.Th>
                  <Table.Th>{columns.when}</Table.Th>
                  <Table.Th ta="end">{columns.tickets}</Table.Th>
                  <Table.Th ta="end">{columns.total}</Table.Th>
                  <Table.Th>{columns.status}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((order) => (
                  <Table.Tr key={order.id}>
                    <Table.Td>
                      <AnchorLink
                        to="/manage/events/$eventId/orders/$orderId"
                        params={{ eventId, orderId: order.id }}
                        size="sm"
                        fw={500}
                      >
                        {personLabel({ name: order.buyerName, email: order.email })}
                      </AnchorLink>
                      <Text size="xs" c="dimmed">
                        {shownContact(order.email)}
                      </Text>
                    </Table.Td>
                    <Table.Td data-label={columns.when}>
                      <time dateTime={order.createdAt}>
                        {intl.formatDate(order.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
                      </time>
                    </Table.Td>
                    <Table.Td ta="end" data-label={columns.tickets}>
                      {intl.formatNumber(order.ticketCount)}
                    </Table.Td>
                    <Table.Td ta="end" data-label={columns.total}>
                      {order.total === 0 ? (
                        <FormattedMessage id="orders.free" defaultMessage="Free" />
                      ) : (
                        formatMoney(intl.locale, order.total, order.currency)
                      )}
                    </Table.Td>
                    <Table.Td data-label={columns.status}>
                      <OrderStatusBadge status={shownOrderStatus(order)} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </Stack>
    </Card>
  );
}
