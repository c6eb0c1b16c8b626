import type { ManagedEventRow } from '@admit/shared/events';
import { cancelTransfer, eventTransfers, transferLimits, type EventTransferRow } from '@admit/shared/transfers';
import { Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { DialogFooter } from '../../lib/dialog-footer';
import { useErrorMessage } from '../../lib/error-message';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { ScrollTable } from '../../lib/scroll-table';
import { TransferRowView, type TransferColumns } from './transfer-row';

/**
 * The event's transfers, newest first, live: who sent which ticket to whom and what became of it,
 * with the order it belongs to; one that waits can be withdrawn (asked first). On a phone each
 * transfer is a block of its own (lib/scroll-table.tsx).
 */
export function TransfersTable({ event }: { event: ManagedEventRow }) {
  const intl = useIntl();
  const transfers = useLiveQuery(eventTransfers, { eventId: event.id });
  const [withdrawing, setWithdrawing] = useState<EventTransferRow | null>(null);
  const label = intl.formatMessage({ id: 'transfers.list', defaultMessage: 'Tickets sent on' });
  const columns = useMemo<TransferColumns>(
    () => ({
      type: intl.formatMessage({ id: 'transfers.col.type', defaultMessage: 'Ticket type' }),
      from: intl.formatMessage({ id: 'transfers.col.from', defaultMessage: 'From' }),
      to: intl.formatMessage({ id: 'transfers.col.to', defaultMessage: 'To' }),
      status: intl.formatMessage({ id: 'transfers.col.status', defaultMessage: 'Status' }),
      sent: intl.formatMessage({ id: 'transfers.col.sent', defaultMessage: 'Sent' }),
      decided: intl.formatMessage({ id: 'transfers.col.decided', defaultMessage: 'Decided' }),
      order: intl.formatMessage({ id: 'transfers.col.order', defaultMessage: 'Order' }),
    }),
    [intl],
  );

  if (transfers.error) return <ErrorState error={transfers.error} />;
  if (!transfers.rows) return <PageLoader />;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {label}
      </Title>
      {transfers.rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'transfers.none', defaultMessage: 'No tickets have been sent on yet.' })}>
          <FormattedMessage
            id="transfers.noneHint"
            defaultMessage="When a ticket holder sends a ticket to someone, it shows here, and stays here once accepted."
          />
        </EmptyState>
      )}
      {transfers.rows.length >= transferLimits.shown && (
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="transfers.newestShown"
            defaultMessage="The newest {count, number} transfers are shown."
            values={{ count: transferLimits.shown }}
          />
        </Text>
      )}
      {transfers.rows.length > 0 && (
        <ScrollTable label={label} minWidth={1000} stacked>
          <Table verticalSpacing="sm" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{columns.type}</Table.Th>
                <Table.Th>{columns.from}</Table.Th>
                <Table.Th>{columns.to}</Table.Th>
                <Table.Th>{columns.status}</Table.Th>
                <Table.Th>{columns.sent}</Table.Th>
                <Table.Th>{columns.decided}</Table.Th>
                <Table.Th>{columns.order}</Table.Th>
                <Table.Th>
                  <FormattedMessage id="transfers.col.actions" defaultMessage="Actions" />
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transfers.rows.map((transfer) => (
                <TransferRowView
                  key={transfer.id}
                  transfer={transfer}
                  eventId={event.id}
                  timeZone={event.timeZone}
                  columns={columns}
                  onWithdraw={setWithdrawing}
                />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {withdrawing && <WithdrawDialog transfer={withdrawing} onClose={() => setWithdrawing(null)} />}
    </Stack>
  );
}

/** An admin withdraws a transfer that waits: the ticket stays with its sender, and the link stops working. */
function WithdrawDialog({ transfer, onClose }: { transfer: EventTransferRow; onClose: () => void }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: () => callFunction(cancelTransfer, { transferId: transfer.id }),
    onSuccess: onClose,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={intl.formatMessage(
        { id: 'transfers.withdraw.title', defaultMessage: 'Withdraw the ticket sent to {email}?' },
        { email: transfer.toEmail },
      )}
    >
      <Stack>
        <Text>
          <FormattedMessage
            id="transfers.withdraw.body"
            defaultMessage="The {type} ticket stays with {name} ({email}), and the link sent to {to} no longer works."
            values={{ type: transfer.ticketTypeName, name: transfer.fromName, email: transfer.fromEmail, to: transfer.toEmail }}
          />
        </Text>
        <DialogFooter
          error={mutation.error && errorMessage(mutation.error)}
          cancel={<FormattedMessage id="transfers.withdraw.keep" defaultMessage="Let it wait" />}
          confirm={<FormattedMessage id="transfers.withdraw.confirm" defaultMessage="Withdraw" />}
          pending={mutation.isPending}
          onCancel={onClose}
          onConfirm={() => mutation.mutate()}
          danger
        />
      </Stack>
    </Modal>
  );
}
