import { formatOrderReference } from '@admit/shared/orders';
import type { EventTransferRow } from '@admit/shared/transfers';
import { Button, Table, Text } from '@mantine/core';
import { memo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnchorLink } from '../../lib/links';
import { TransferStatusBadge } from './transfer-status-badge';

/** The columns' names, which each cell carries for the stacked rows of a phone (lib/scroll-table.tsx). */
export interface TransferColumns {
  type: string;
  from: string;
  to: string;
  status: string;
  sent: string;
  decided: string;
  order: string;
}

/**
 * One transfer of the organizers' list. Memoized by its row: the live rows keep their objects while
 * unchanged (lib/live.ts).
 */
export const TransferRowView = memo(function TransferRowView({
  transfer,
  eventId,
  timeZone,
  columns,
  onWithdraw,
}: {
  transfer: EventTransferRow;
  eventId: string;
  /** The event's: times are written in it, as the event's other lists write them. */
  timeZone: string;
  columns: TransferColumns;
  onWithdraw: (transfer: EventTransferRow) => void;
}) {
  const intl = useIntl();
  const when = (at: string) => (
    <time dateTime={at}>{intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short', timeZone })}</time>
  );
  return (
    <Table.Tr data-testid="transfer-row" data-status={transfer.status}>
      <Table.Td data-label={columns.type}>{transfer.ticketTypeName}</Table.Td>
      <Table.Td data-label={columns.from}>
        <Text size="sm">{transfer.fromName}</Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {transfer.fromEmail}
        </Text>
      </Table.Td>
      <Table.Td data-label={columns.to}>
        {transfer.toName && <Text size="sm">{transfer.toName}</Text>}
        <Text size={transfer.toName ? 'xs' : 'sm'} c={transfer.toName ? 'dimmed' : undefined} style={{ wordBreak: 'break-all' }}>
          {transfer.toEmail}
        </Text>
      </Table.Td>
      <Table.Td data-label={columns.status}>
        <TransferStatusBadge status={transfer.status} />
      </Table.Td>
      <Table.Td data-label={columns.sent}>{when(transfer.createdAt)}</Table.Td>
      {/* Empty, and without its column's name on a phone, while it waits. */}
      <Table.Td data-label={transfer.decidedAt ? columns.decided : undefined}>
        {transfer.decidedAt && when(transfer.decidedAt)}
      </Table.Td>
      <Table.Td data-label={columns.order}>
        <AnchorLink to="/manage/events/$eventId/orders/$orderId" params={{ eventId, orderId: transfer.orderId }} size="sm">
          {formatOrderReference(transfer.orderId)}
        </AnchorLink>
      </Table.Td>
      <Table.Td data-action>
        {transfer.status === 'pending' && (
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={() => onWithdraw(transfer)}
            // The visible words first, as a voice command says them.
            aria-label={intl.formatMessage(
              { id: 'transfers.withdrawTo', defaultMessage: 'Withdraw the ticket sent to {email}' },
              { email: transfer.toEmail },
            )}
          >
            <FormattedMessage id="transfers.withdraw" defaultMessage="Withdraw" />
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
});
