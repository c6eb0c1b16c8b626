import { cancelEvent, cancellable, deleteEvent, moveEvent, movesFrom, type EventMove } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { DialogFooter } from '../../lib/dialog-footer';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { EditEventDialog } from './edit-event-dialog';

const moveLabels = defineMessages({
  publish: { id: 'editor.publish', defaultMessage: 'Publish' },
  unpublish: { id: 'editor.move.unpublish', defaultMessage: 'Back to draft' },
  closeSales: { id: 'editor.move.closeSales', defaultMessage: 'Close sales' },
  reopenSales: { id: 'editor.move.reopenSales', defaultMessage: 'Reopen sales' },
  end: { id: 'editor.move.end', defaultMessage: 'Mark as ended' },
});
const moveDone = defineMessages({
  publish: { id: 'editor.published', defaultMessage: 'The event is on sale.' },
  unpublish: { id: 'editor.move.unpublished', defaultMessage: 'The event is a draft again: only your team can see it.' },
  closeSales: { id: 'editor.move.salesClosed', defaultMessage: 'Sales are closed. Tickets sold stay valid.' },
  reopenSales: { id: 'editor.move.salesReopened', defaultMessage: 'The event is on sale again.' },
  end: { id: 'editor.move.ended', defaultMessage: 'The event is marked as ended.' },
});

/** What an admin can do to the event as a whole now: edit it, move its status, cancel or delete it. */
export function EventActions({ event, hasTicketTypes }: { event: ManagedEventRow; hasTicketTypes: boolean }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const [dialog, setDialog] = useState<'edit' | 'cancel' | 'delete' | null>(null);
  const move = useMutation({
    mutationFn: (move: EventMove) => callFunction(moveEvent, { eventId: event.id, move }),
    onSuccess: (_result, move) => notifications.show({ color: 'green', message: intl.formatMessage(moveDone[move]) }),
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const moves = movesFrom(event.status).filter(
    (one) => (one !== 'unpublish' || event.sold + event.held === 0) && (one !== 'publish' || hasTicketTypes),
  );
  const close = () => setDialog(null);
  return (
    <>
      <Group gap="xs" role="group" aria-label={intl.formatMessage({ id: 'editor.actions', defaultMessage: 'Event actions' })}>
        {event.status !== 'cancelled' && (
          <Button variant="default" onClick={() => setDialog('edit')}>
            <FormattedMessage id="editor.edit" defaultMessage="Edit details" />
          </Button>
        )}
        {moves.map((one) => (
          <Button
            key={one}
            variant={one === 'publish' || one === 'reopenSales' ? 'filled' : 'default'}
            color={one === 'publish' || one === 'reopenSales' ? 'green' : undefined}
            loading={move.isPending && move.variables === one}
            onClick={() => move.mutate(one)}
          >
            {intl.formatMessage(moveLabels[one])}
          </Button>
        ))}
        {event.status !== 'draft' && cancellable(event.status) && (
          <Button variant="outline" color="red" onClick={() => setDialog('cancel')}>
            <FormattedMessage id="editor.cancelEvent" defaultMessage="Cancel event" />
          </Button>
        )}
        {event.status === 'draft' && (
          <Button variant="subtle" color="red" onClick={() => setDialog('delete')}>
            <FormattedMessage id="editor.delete" defaultMessage="Delete draft" />
          </Button>
        )}
      </Group>
      <EditEventDialog event={event} opened={dialog === 'edit'} onClose={close} />
      {dialog === 'cancel' && <CancelEventDialog event={event} onClose={close} />}
      {dialog === 'delete' && <DeleteEventDialog event={event} onClose={close} />}
    </>
  );
}

function CancelEventDialog({ event, onClose }: { event: ManagedEventRow; onClose: () => void }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const [message, setMessage] = useState('');
  const mutation = useMutation({
    mutationFn: () => callFunction(cancelEvent, { eventId: event.id, message }),
    onSuccess: ({ ordersToRefund }) => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'editor.cancel.done',
            defaultMessage:
              'The event is cancelled. {orders, plural, =0 {There were no paid orders.} one {# order is being refunded and its buyer emailed.} other {# orders are being refunded and their buyers emailed.}}',
          },
          { orders: ordersToRefund },
        ),
      });
      onClose();
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={intl.formatMessage({ id: 'editor.cancel.title', defaultMessage: 'Cancel “{title}”?' }, { title: event.title })}
    >
      <Stack>
        <Text>
          <FormattedMessage
            id="editor.cancel.body"
            defaultMessage="Sales stop at once. Every paid order is refunded in full, {sold, plural, =0 {} one {the # ticket sold becomes void,} other {the # tickets sold become void,}} and every buyer gets an email in their language. This cannot be undone."
            values={{ sold: event.sold }}
          />
        </Text>
        <Textarea
          label={intl.formatMessage({ id: 'editor.cancel.message', defaultMessage: 'Message to your buyers (optional)' })}
          description={intl.formatMessage({
            id: 'editor.cancel.messageHint',
            defaultMessage: 'Shown in the email, as you write it.',
          })}
          maxLength={1000}
          autosize
          minRows={2}
          value={message}
          onChange={(change) => setMessage(change.currentTarget.value)}
        />
        <DialogFooter
          error={mutation.error && errorMessage(mutation.error)}
          cancel={<FormattedMessage id="editor.cancel.keep" defaultMessage="Keep the event" />}
          confirm={<FormattedMessage id="editor.cancel.confirm" defaultMessage="Cancel event and refund everyone" />}
          pending={mutation.isPending}
          onCancel={onClose}
          onConfirm={() => mutation.mutate()}
          danger
        />
      </Stack>
    </Modal>
  );
}

function DeleteEventDialog({ event, onClose }: { event: ManagedEventRow; onClose: () => void }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: () => callFunction(deleteEvent, { eventId: event.id }),
    onSuccess: ({ organizationId }) => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'editor.delete.done', defaultMessage: 'The draft is deleted.' }),
      });
      void navigate({ to: '/manage/orgs/$organizationId', params: { organizationId } });
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={intl.formatMessage({ id: 'editor.delete.title', defaultMessage: 'Delete “{title}”?' }, { title: event.title })}
    >
      <Stack>
        <Text>
          <FormattedMessage
            id="editor.delete.body"
            defaultMessage="The draft and its ticket types are deleted. This cannot be undone."
          />
        </Text>
        <DialogFooter
          error={mutation.error && errorMessage(mutation.error)}
          cancel={<FormattedMessage id="editor.delete.keep" defaultMessage="Keep it" />}
          confirm={<FormattedMessage id="editor.delete.confirm" defaultMessage="Delete draft" />}
          pending={mutation.isPending}
          onCancel={onClose}
          onConfirm={() => mutation.mutate()}
          danger
        />
      </Stack>
    </Modal>
  );
}
