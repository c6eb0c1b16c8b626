import type { ResaleState, ResaleTerms } from '@admit/shared/resale';
import { resellTicket, withdrawResale } from '@admit/shared/transfers';
import { Alert, Button, Modal, Stack, Table, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { DialogFooter } from '../../lib/dialog-footer';
import { useErrorMessage } from '../../lib/error-message';
import { formatMoney } from '../../lib/money';

/** What the resale controls need of a ticket: My tickets' rows and the order page's both have it. */
export interface ResellableTicket {
  id: string;
  ticketTypeName: string;
  /** Its open offer (decision 0066): waiting for a buyer, or one is paying for it. */
  resale: ResaleState | null;
  /** What offering it now would give back; null: it cannot be offered. */
  resaleTerms: ResaleTerms | null;
}

/** Whether a ticket has anything to show about resale: it may be offered, or it is. */
export const resaleShown = (ticket: ResellableTicket) => ticket.resale !== null || ticket.resaleTerms !== null;

/**
 * Offering a ticket back at the price paid (decision 0066), for whoever bought it: a dialog with the
 * price, the organizer's fee and what comes back, and once offered, a way to take the offer back
 * until someone is paying for it. A guest acts with their order's token (`accessToken`). As with
 * sending a ticket on, one sentence says where the offer is, announced as it changes (a buyer takes
 * it elsewhere), and takes the focus after an action, as the button pressed is gone.
 */
export function TicketResale({ ticket, accessToken }: { ticket: ResellableTicket; accessToken?: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const sentence = useRef<HTMLParagraphElement>(null);
  const offerButton = useRef<HTMLButtonElement>(null);
  const [offering, setOffering] = useState(false);
  // Where the focus goes once the dialog is gone (it returns nowhere by itself when unmounted).
  const refocus = useRef<'sentence' | 'button' | null>(null);
  useEffect(() => {
    if (offering || !refocus.current) return;
    (refocus.current === 'sentence' ? sentence.current : (offerButton.current ?? sentence.current))?.focus();
    refocus.current = null;
  });
  const withdraw = useMutation({
    mutationFn: () => callFunction(withdrawResale, { ticketId: ticket.id, ...(accessToken ? { accessToken } : {}) }),
    onSuccess: () => sentence.current?.focus(),
  });
  const { resale, resaleTerms: terms } = ticket;
  if (!resale && !terms) return null;

  return (
    <Stack gap={6} align="center" w="100%" data-testid="ticket-resale" data-offered={resale?.status ?? 'no'}>
      {/* One element for every state, so that a screen reader hears each change of it. */}
      <Text ref={sentence} tabIndex={-1} role="status" size="sm" ta="center" style={{ textWrap: 'balance' }}>
        {resale?.status === 'held' ? (
          <FormattedMessage id="resale.held" defaultMessage="Offered for resale · someone is buying it now." />
        ) : resale ? (
          <FormattedMessage
            id="resale.listed"
            defaultMessage="Offered for resale · you get {payout} back when it sells."
            values={{ payout: <strong>{formatMoney(intl.locale, resale.payout, resale.currency)}</strong> }}
          />
        ) : (
          <FormattedMessage id="resale.offerable" defaultMessage="Cannot go? Offer it back at the price you paid." />
        )}
      </Text>
      {resale?.status === 'listed' && (
        <Button
          variant="default"
          size="xs"
          loading={withdraw.isPending}
          onClick={() => withdraw.mutate()}
          aria-label={intl.formatMessage(
            { id: 'resale.withdrawFor', defaultMessage: 'Take back the {type} ticket from resale' },
            { type: ticket.ticketTypeName },
          )}
        >
          <FormattedMessage id="resale.withdraw" defaultMessage="Take back" />
        </Button>
      )}
      {!resale && terms && (
        <Button
          ref={offerButton}
          variant="light"
          size="xs"
          leftSection={<IconArrowBackUp size={16} aria-hidden />}
          onClick={() => {
            withdraw.reset();
            setOffering(true);
          }}
          // The visible words first, as a voice command says them.
          aria-label={intl.formatMessage(
            { id: 'resale.offerFor', defaultMessage: 'Offer for resale: the {type} ticket' },
            { type: ticket.ticketTypeName },
          )}
        >
          <FormattedMessage id="resale.offer" defaultMessage="Offer for resale" />
        </Button>
      )}
      {withdraw.error && (
        <Alert color="red" role="alert" w="100%">
          {errorMessage(withdraw.error)}
        </Alert>
      )}
      {offering && (
        <OfferResaleDialog
          ticket={ticket}
          accessToken={accessToken}
          onClose={(offered) => {
            refocus.current = offered ? 'sentence' : 'button';
            setOffering(false);
          }}
        />
      )}
    </Stack>
  );
}

/**
 * The terms of the offer, as the live row shows them now: a fee the organizer changes while the
 * dialog is open shows at once, and the offer sends the fee on screen (the server refuses another).
 */
function OfferResaleDialog({
  ticket,
  accessToken,
  onClose,
}: {
  ticket: ResellableTicket;
  accessToken?: string;
  onClose: (offered: boolean) => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  // The last terms seen: once offered, the row has none (it is offered) before the answer comes back.
  const [terms, setTerms] = useState(ticket.resaleTerms);
  if (ticket.resaleTerms && ticket.resaleTerms !== terms) setTerms(ticket.resaleTerms);
  const offer = useMutation({
    mutationFn: (fee: number) =>
      callFunction(resellTicket, { ticketId: ticket.id, fee, ...(accessToken ? { accessToken } : {}) }),
    onSuccess: () => onClose(true),
  });
  if (!terms) return null;
  const money = (minor: number) => formatMoney(intl.locale, minor, terms.currency);
  const rows = [
    { label: <FormattedMessage id="resale.dialog.price" defaultMessage="You paid" />, amount: money(terms.price) },
    { label: <FormattedMessage id="resale.dialog.fee" defaultMessage="The organizer’s fee" />, amount: money(-terms.fee) },
  ];
  return (
    <Modal
      opened
      onClose={() => onClose(false)}
      title={intl.formatMessage(
        { id: 'resale.dialog.title', defaultMessage: 'Offer your {type} ticket for resale' },
        { type: ticket.ticketTypeName },
      )}
    >
      <Stack gap="md">
        <Table layout="fixed" verticalSpacing={6} horizontalSpacing={0}>
          <Table.Tbody>
            {rows.map((row, index) => (
              <Table.Tr key={index}>
                <Table.Th scope="row" fw={400}>
                  {row.label}
                </Table.Th>
                <Table.Td ta="end">{row.amount}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">
                <FormattedMessage id="resale.dialog.payout" defaultMessage="You get back" />
              </Table.Th>
              <Table.Td ta="end" fw={700} data-testid="resale-payout">
                {money(terms.payout)}
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
        <Text size="sm">
          <FormattedMessage
            id="resale.dialog.explain"
            defaultMessage="{refund, select, none {Your ticket stays valid until someone takes it. When they do, it becomes void. Until then, you can take the offer back.} other {Your ticket stays valid until someone buys it. When it sells, it becomes void and {payout} goes back to the card you paid with. Until then, you can take the offer back.}}"
            values={{ refund: terms.payout > 0 ? 'some' : 'none', payout: money(terms.payout) }}
          />
        </Text>
        <DialogFooter
          error={offer.error && errorMessage(offer.error)}
          cancel={<FormattedMessage id="resale.dialog.keep" defaultMessage="Keep it" />}
          confirm={<FormattedMessage id="resale.dialog.confirm" defaultMessage="Offer for resale" />}
          pending={offer.isPending}
          onCancel={() => onClose(false)}
          onConfirm={() => offer.mutate(terms.fee)}
        />
      </Stack>
    </Modal>
  );
}
