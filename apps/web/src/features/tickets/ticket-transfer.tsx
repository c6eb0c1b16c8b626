import { cancelTransfer, transferTicket } from '@admit/shared/transfers';
import { Alert, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { formatMoment } from '../../lib/dates';
import { DialogFooter } from '../../lib/dialog-footer';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';

/** What the transfer controls need of a ticket: My tickets' rows and the order page's both have it. */
export interface TransferableTicket {
  id: string;
  ticketTypeName: string;
  /** Until when it may be sent on; null: it cannot be (decision 0065). */
  transferUntil: string | null;
  pendingTransfer: { id: string; toEmail: string } | null;
  /** Its offer for resale (decision 0066): while offered, it cannot be sent on. */
  resale: object | null;
}

/** Whether a ticket has anything to show about sending it on: it may be sent, or it is on its way. */
export const transferShown = (ticket: TransferableTicket) =>
  ticket.resale === null && (ticket.transferUntil !== null || ticket.pendingTransfer !== null);

/**
 * Sending a ticket to someone else by their email address (decision 0065), for whoever holds it:
 * until when it can be, a dialog that asks for the address, and once sent, to whom it is on its way
 * and a way to take it back until they accept. A guest acts with their token (`accessToken`: their
 * order's link, or the ticket's own). One sentence says where the ticket is, announced as it changes
 * (the recipient accepts or declines elsewhere), and takes the focus after an action, as the button
 * pressed is gone.
 */
export function TicketTransfer({
  ticket,
  timeZone,
  accessToken,
}: {
  ticket: TransferableTicket;
  /** The deadline is written in it, with its name: the event's, or the visitor's own. */
  timeZone: string;
  accessToken?: string;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const sentence = useRef<HTMLParagraphElement>(null);
  const sendButton = useRef<HTMLButtonElement>(null);
  const [sending, setSending] = useState(false);
  // Where the focus goes once the dialog is gone (it returns nowhere by itself when unmounted).
  const refocus = useRef<'sentence' | 'button' | null>(null);
  useEffect(() => {
    if (sending || !refocus.current) return;
    (refocus.current === 'sentence' ? sentence.current : (sendButton.current ?? sentence.current))?.focus();
    refocus.current = null;
  });
  const cancel = useMutation({
    mutationFn: (transferId: string) => callFunction(cancelTransfer, { transferId, ...(accessToken ? { accessToken } : {}) }),
    onSuccess: () => sentence.current?.focus(),
  });
  const pending = ticket.pendingTransfer;
  const until = ticket.transferUntil;
  if (!transferShown(ticket)) return null;

  return (
    <Stack gap={6} align="center" w="100%" data-testid="ticket-transfer" data-pending={pending ? 'yes' : 'no'}>
      {/* One element for every state, so that a screen reader hears each change of it. */}
      <Text ref={sentence} tabIndex={-1} role="status" size="sm" ta="center" style={{ overflowWrap: 'anywhere' }}>
        {pending ? (
          <FormattedMessage
            id="transfer.waiting"
            defaultMessage="Waiting for {email} to accept this ticket."
            values={{ email: <strong>{pending.toEmail}</strong> }}
          />
        ) : until ? (
          <FormattedMessage
            id="transfer.until"
            defaultMessage="You can send it to someone else until {time}."
            values={{ time: <time dateTime={until}>{formatMoment(intl.locale, until, timeZone)}</time> }}
          />
        ) : null}
      </Text>
      {pending ? (
        <Button
          variant="default"
          size="xs"
          loading={cancel.isPending}
          onClick={() => cancel.mutate(pending.id)}
          // The visible words first, as a voice command says them.
          aria-label={intl.formatMessage(
            { id: 'transfer.cancelFor', defaultMessage: 'Cancel the transfer of the {type} ticket' },
            { type: ticket.ticketTypeName },
          )}
        >
          <FormattedMessage id="transfer.cancel" defaultMessage="Cancel the transfer" />
        </Button>
      ) : (
        <Button
          ref={sendButton}
          variant="light"
          size="xs"
          leftSection={<IconSend size={16} aria-hidden />}
          onClick={() => {
            cancel.reset();
            setSending(true);
          }}
          aria-label={intl.formatMessage(
            { id: 'transfer.sendFor', defaultMessage: 'Send to someone: the {type} ticket' },
            { type: ticket.ticketTypeName },
          )}
        >
          <FormattedMessage id="transfer.send" defaultMessage="Send to someone" />
        </Button>
      )}
      {cancel.error && (
        <Alert color="red" role="alert" w="100%">
          {errorMessage(cancel.error)}
        </Alert>
      )}
      {sending && (
        <SendTicketDialog
          ticket={ticket}
          accessToken={accessToken}
          onClose={(sent) => {
            refocus.current = sent ? 'sentence' : 'button';
            setSending(false);
          }}
        />
      )}
    </Stack>
  );
}

/** The address to send the ticket to, with what sending it does, checked as the server checks it. */
function SendTicketDialog({
  ticket,
  accessToken,
  onClose,
}: {
  ticket: TransferableTicket;
  accessToken?: string;
  onClose: (sent: boolean) => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: { email: string }) => ({
    ticketId: ticket.id,
    email: values.email,
    ...(accessToken ? { accessToken } : {}),
  });
  const form = useForm<{ email: string }>({
    initialValues: { email: '' },
    validate: validateWith(transferTicket.input, intl, input),
    // The server's refusal was about the address typed before: it goes with it.
    onValuesChange: () => send.reset(),
  });
  const send = useMutation({
    mutationFn: (values: { email: string }) => callFunction(transferTicket, input(values)),
    onSuccess: () => onClose(true),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const shown = send.error && Object.keys(form.errors).length === 0 ? errorMessage(send.error) : null;
  return (
    <Modal
      opened
      onClose={() => onClose(false)}
      title={intl.formatMessage(
        { id: 'transfer.dialog.title', defaultMessage: 'Send your {type} ticket to someone' },
        { type: ticket.ticketTypeName },
      )}
    >
      <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            autoComplete="off"
            data-autofocus
            required
            label={intl.formatMessage({ id: 'transfer.dialog.email', defaultMessage: 'Their email address' })}
            description={intl.formatMessage({
              id: 'transfer.dialog.explain',
              defaultMessage:
                'They get an email to accept it. Until they do, the ticket stays yours; once they accept, its code changes and this one no longer admits.',
            })}
            maxLength={254}
            {...form.getInputProps('email')}
          />
          <DialogFooter
            error={shown}
            cancel={<FormattedMessage id="transfer.dialog.keep" defaultMessage="Keep it" />}
            confirm={<FormattedMessage id="transfer.dialog.send" defaultMessage="Send" />}
            pending={send.isPending}
            onCancel={() => onClose(false)}
          />
        </Stack>
      </form>
    </Modal>
  );
}
