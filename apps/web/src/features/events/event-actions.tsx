import { cancelEvent, cancellable, deleteEvent, moveEvent, movesFrom, type EventMove } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import { Button, Group, Menu, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowsExchange,
  IconBan,
  IconChartBar,
  IconChevronDown,
  IconHourglass,
  IconListCheck,
  IconMail,
  IconPencil,
  IconTicket,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { DialogFooter } from '../../lib/dialog-footer';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';
import { MenuItemLink } from '../../lib/menu-item-link';
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

/**
 * What an admin can do to the event now, in one menu so the page opens on what the event needs
 * rather than on a row of buttons (ten of them wrapped over three lines on a phone): going on sale
 * or back on sale stays a button of its own, the rest are items, and cancelling or deleting sit
 * apart at the end, under a label that says they cannot be undone (decision 0056).
 */
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
  const forward: EventMove[] = moves.filter((one) => one === 'publish' || one === 'reopenSales');
  const others = moves.filter((one) => !forward.includes(one));
  const live = event.status !== 'cancelled';
  const editable = live && event.status !== 'ended';
  const canCancel = event.status !== 'draft' && cancellable(event.status);
  const canDelete = event.status === 'draft';
  const close = () => setDialog(null);
  const eventId = event.id;
  return (
    <>
      <Group gap="xs">
        {forward.map((one) => (
          <Button key={one} color="green" loading={move.isPending && move.variables === one} onClick={() => move.mutate(one)}>
            {intl.formatMessage(moveLabels[one])}
          </Button>
        ))}
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              variant="default"
              rightSection={<IconChevronDown size={16} aria-hidden />}
              loading={move.isPending && move.variables !== undefined && others.includes(move.variables)}
            >
              <FormattedMessage id="editor.actions" defaultMessage="Event actions" />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {live && (
              <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setDialog('edit')}>
                <FormattedMessage id="editor.edit" defaultMessage="Edit details" />
              </Menu.Item>
            )}
            <MenuItemLink
              to="/manage/events/$eventId/analytics"
              params={{ eventId }}
              leftSection={<IconChartBar size={16} aria-hidden />}
            >
              <FormattedMessage id="editor.analytics" defaultMessage="Sales and visitors" />
            </MenuItemLink>
            {editable && (
              <MenuItemLink
                to="/manage/events/$eventId/codes"
                params={{ eventId }}
                leftSection={<IconTicket size={16} aria-hidden />}
              >
                <FormattedMessage id="editor.codes" defaultMessage="Codes" />
              </MenuItemLink>
            )}
            {editable && (
              <MenuItemLink
                to="/manage/events/$eventId/questions"
                params={{ eventId }}
                leftSection={<IconListCheck size={16} aria-hidden />}
              >
                <FormattedMessage id="editor.questions" defaultMessage="Questions" />
              </MenuItemLink>
            )}
            {editable && (
              <MenuItemLink
                to="/manage/events/$eventId/waitlist"
                params={{ eventId }}
                leftSection={<IconHourglass size={16} aria-hidden />}
              >
                <FormattedMessage id="editor.waitlist" defaultMessage="Waiting list" />
              </MenuItemLink>
            )}
            {editable && (
              <MenuItemLink
                to="/manage/events/$eventId/transfers"
                params={{ eventId }}
                leftSection={<IconArrowsExchange size={16} aria-hidden />}
              >
                <FormattedMessage id="editor.transfers" defaultMessage="Transfers" />
              </MenuItemLink>
            )}
            {live && (
              <MenuItemLink
                to="/manage/events/$eventId/messages"
                params={{ eventId }}
                leftSection={<IconMail size={16} aria-hidden />}
              >
                <FormattedMessage id="editor.messages" defaultMessage="Message attendees" />
              </MenuItemLink>
            )}
            {others.length > 0 && <Menu.Divider />}
            {others.map((one) => (
              <Menu.Item key={one} onClick={() => move.mutate(one)}>
                {intl.formatMessage(moveLabels[one])}
              </Menu.Item>
            ))}
            {(canCancel || canDelete) && (
              <>
                <Menu.Divider />
                <Menu.Label>
                  <FormattedMessage id="editor.actions.final" defaultMessage="Cannot be undone" />
                </Menu.Label>
              </>
            )}
            {canCancel && (
              <Menu.Item color="red" leftSection={<IconBan size={16} aria-hidden />} onClick={() => setDialog('cancel')}>
                <FormattedMessage id="editor.cancelEvent" defaultMessage="Cancel event" />
              </Menu.Item>
            )}
            {canDelete && (
              <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDialog('delete')}>
                <FormattedMessage id="editor.delete" defaultMessage="Delete draft" />
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <EditEventDialog event={event} opened={dialog === 'edit'} onOpen={() => setDialog('edit')} onClose={close} />
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
