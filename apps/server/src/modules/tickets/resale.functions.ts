import { resellTicket, withdrawResale } from '@admit/shared/transfers';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { eventTopic } from '../events/events.api';
import { orderLine } from '../orders/schema';
import { listForResale, openListingOf, withdrawListing } from './resale';
import { ticket, ticketTransfer } from './schema';
import { lockHeldTicket, type TicketChangeOnOrder } from './ticket-holders';
import { ticketTopic, userTicketsTopic } from './topics';
import { resaleTermsOf, transferSettingsOf } from './transfer-window';

// A holder offers a ticket back for resale at face value, or takes the offer back (decision 0066).
// Each locks the ticket first, as every step on a ticket does; the sale itself happens when a
// buyer's order completes (orders and payments modules).

type Held = Awaited<ReturnType<typeof lockHeldTicket>>;

/** What the ticket's seller would be given for it now (resaleTermsOf), read inside the ticket's lock. */
export async function termsFor(tx: Tx, found: Held) {
  const [line] = await tx
    .select({ price: orderLine.unitPrice })
    .from(orderLine)
    .where(and(eq(orderLine.orderId, found.order.id), eq(orderLine.ticketTypeId, found.ticket.ticketTypeId)));
  const [pending] = await tx
    .select({ id: ticketTransfer.id })
    .from(ticketTransfer)
    .where(and(eq(ticketTransfer.ticketId, found.ticket.id), eq(ticketTransfer.status, 'pending')));
  const listing = await openListingOf(tx, found.ticket.id);
  return resaleTermsOf(found.ticket, found.event, await transferSettingsOf(tx, found.ticket.eventId), {
    orderStatus: found.order.status,
    price: line?.price ?? 0,
    currency: found.order.currency,
    busy: pending !== undefined || listing !== undefined,
  });
}

/** The topics a resale step changes: the seller's order, their tickets, and the event's availability. */
const topicsOf = (onOrder: TicketChangeOnOrder, found: Held) => [
  ...onOrder.topics(found.order, found.event.organizationId),
  ticketTopic(found.ticket.id),
  eventTopic(found.ticket.eventId),
  ...(found.order.buyerId ? [userTicketsTopic(found.order.buyerId)] : []),
];

const resellCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(resellTicket, {
    auth: 'optional',
    async handler(input, ctx) {
      const listed = await ctx.db.transaction(async (tx) => {
        const found = await lockHeldTicket(tx, ctx, { onOrder, accessToken: input.accessToken }, eq(ticket.id, input.ticketId));
        const settings = await transferSettingsOf(tx, found.ticket.eventId);
        const terms = await termsFor(tx, found);
        if (!terms) {
          if (!settings?.resaleEnabled || found.event.status !== 'published')
            throw new CallableError('failed-precondition', 'Tickets of this event cannot be offered back now', {
              reason: 'resale-closed',
            });
          throw new CallableError('failed-precondition', 'This ticket cannot be offered back', {
            reason: 'ticket-not-resellable',
          });
        }
        // The holder agreed to the fee they were shown; a fee changed since is shown to them, not applied.
        if (terms.fee !== input.fee)
          throw new CallableError('failed-precondition', 'The resale fee changed', {
            reason: 'resale-fee-changed',
            fee: terms.fee,
          });
        const resaleId = await listForResale(tx, { ticket: found.ticket, price: terms.price, fee: terms.fee });
        await onOrder.record(
          tx,
          found.order.id,
          'resale_listed',
          { ticket: found.ticket.id.slice(0, 8), price: terms.price, fee: terms.fee },
          ctx.user?.id ?? null,
        );
        return { found, resaleId };
      });
      ctx.publish(...topicsOf(onOrder, listed.found));
      return { resaleId: listed.resaleId };
    },
  });

const withdrawCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(withdrawResale, {
    auth: 'optional',
    async handler(input, ctx) {
      const found = await ctx.db.transaction(async (tx) => {
        const found = await lockHeldTicket(tx, ctx, { onOrder, accessToken: input.accessToken }, eq(ticket.id, input.ticketId));
        const listing = await openListingOf(tx, found.ticket.id);
        if (!listing)
          throw new CallableError('failed-precondition', 'This ticket is not offered for resale', {
            reason: 'ticket-not-resellable',
          });
        if (!(await withdrawListing(tx, listing)))
          throw new CallableError('failed-precondition', 'Someone is buying this ticket now', { reason: 'resale-held' });
        await onOrder.record(
          tx,
          found.order.id,
          'resale_withdrawn',
          { ticket: found.ticket.id.slice(0, 8) },
          ctx.user?.id ?? null,
        );
        return found;
      });
      ctx.publish(...topicsOf(onOrder, found));
      return { status: 'withdrawn' };
    },
  });

/** The resale callables, with the orders module's side of them (composition.ts). */
export const resaleCallables = (onOrder: TicketChangeOnOrder) => [resellCallable(onOrder), withdrawCallable(onOrder)];
