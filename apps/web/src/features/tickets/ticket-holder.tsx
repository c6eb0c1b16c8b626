import { setTicketHolder, type MyTicketRow } from '@admit/shared/tickets';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { useErrorMessage } from '../../lib/error-message';

/** Whether the buyer may still name who uses the ticket: valid, and the event not started nor cancelled. */
export const holderEditable = (ticket: MyTicketRow, now = Date.now()) =>
  ticket.status === 'valid' && ticket.eventStatus !== 'cancelled' && Date.parse(ticket.startsAt) > now;

/**
 * Who the ticket is for, and (when `editable`: until the event starts) a way to change it; a guest
 * changes it with their order's token.
 */
export function TicketHolder({
  ticket,
  editable,
  accessToken,
}: {
  ticket: Pick<MyTicketRow, 'id' | 'holderName' | 'ticketTypeName'>;
  editable: boolean;
  accessToken?: string;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(ticket.holderName);
  const mutation = useMutation({
    mutationFn: () => callFunction(setTicketHolder, { ticketId: ticket.id, name, ...(accessToken ? { accessToken } : {}) }),
    onSuccess: () => setEditing(false),
  });
  const label = intl.formatMessage(
    { id: 'ticketHolder.label', defaultMessage: 'Name on this {type} ticket' },
    { type: ticket.ticketTypeName },
  );
  if (!editing)
    return (
      <Group gap="xs" justify="center" wrap="nowrap">
        <Text size="sm">
          <FormattedMessage
            id="ticketHolder.for"
            defaultMessage="For {name}"
            values={{ name: <strong>{ticket.holderName}</strong> }}
          />
        </Text>
        {editable && (
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setName(ticket.holderName);
              setEditing(true);
            }}
            aria-label={intl.formatMessage(
              { id: 'ticketHolder.changeLabel', defaultMessage: 'Change the name on this {type} ticket' },
              { type: ticket.ticketTypeName },
            )}
          >
            <FormattedMessage id="ticketHolder.change" defaultMessage="Change" />
          </Button>
        )}
      </Group>
    );
  return (
    <form
      onSubmit={(submitted) => {
        submitted.preventDefault();
        if (name.trim()) mutation.mutate();
      }}
      style={{ width: '100%' }}
    >
      <Stack gap="xs">
        <TextInput
          label={label}
          value={name}
          onChange={(change) => setName(change.currentTarget.value)}
          maxLength={200}
          required
          data-autofocus
          autoFocus
          error={
            name.trim() === ''
              ? intl.formatMessage({ id: 'form.required', defaultMessage: 'This field is required.' })
              : undefined
          }
        />
        {mutation.isPaused && (
          // With no network the change waits (TanStack Query pauses it) and goes out when the network
          // is back, as long as this page stays open: said, rather than a spinner that never ends.
          <Alert color="yellow" role="status">
            <FormattedMessage
              id="ticketHolder.offline"
              defaultMessage="You are offline. The new name will be saved as soon as you are back online; keep this page open until then."
            />
          </Alert>
        )}
        {mutation.error && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        <Group gap="xs" justify="center">
          <Button type="submit" size="xs" loading={mutation.isPending}>
            <FormattedMessage id="ticketHolder.save" defaultMessage="Save name" />
          </Button>
          <Button variant="default" size="xs" onClick={() => setEditing(false)}>
            <FormattedMessage id="editEvent.cancel" defaultMessage="Discard" />
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
