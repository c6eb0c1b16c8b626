import { randomUUID } from 'node:crypto';
import { acceptTransfer, cancelTransfer, configureTransfers, transferTicket, type TransferStatus } from '@admit/shared/transfers';
import { and, count, eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Tx } from '../../platform/db/database';
import { defineCallable, type CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { eventTopic, requireEventRole } from '../events/events.api';
import { event } from '../events/schema';
import { order } from '../orders/schema';
import { checkTicketAnswers, questionsOf } from '../questions/questions.api';
import { reissueTicket } from './issue-tickets';
import { openListingOf } from './resale';
import { ticket, ticketTransfer, transferSettings } from './schema';
import { holdsTicket, ticketAccessToken, transferTokenOpens } from './ticket-access';
import { lockHeldTicket, type TicketChangeOnOrder } from './ticket-holders';
import { eventTransfersTopic, ticketTopic, transferTopic, userTicketsTopic } from './topics';
import { transferSettingsOf, transferUntil } from './transfer-window';

// A holder sends a ticket on; its recipient accepts or declines; the sender or an admin may take it
// back until then (decision 0065). Each step locks the ticket, then the transfer, so two steps on one
// ticket happen one after the other.

/** How many times one ticket may be sent (each sends an email to an address its holder typed). */
const transfersPerTicket = 5;

const closed = () =>
  new CallableError('failed-precondition', 'Tickets of this event cannot be sent on now', { reason: 'transfers-closed' });
const notTransferable = () =>
  new CallableError('failed-precondition', 'This ticket cannot be sent on', { reason: 'ticket-not-transferable' });
const decided = (status: TransferStatus) =>
  new CallableError('failed-precondition', 'This transfer is no longer open', { reason: 'transfer-decided', status });

/** The topics a transfer's step changes: the order's, its tickets' holders', the transfer's and the event's list. */
function topicsOf(
  onOrder: TicketChangeOnOrder,
  found: { order: { id: string; eventId: string; buyerId: string | null }; organizationId: string },
  more: { transferId: string; ticketIds: string[]; userIds: (string | null)[] },
) {
  return [
    ...onOrder.topics(found.order, found.organizationId),
    eventTransfersTopic(found.order.eventId),
    transferTopic(more.transferId),
    ...more.ticketIds.map(ticketTopic),
    ...more.userIds.flatMap((userId) => (userId ? [userTicketsTopic(userId)] : [])),
  ];
}

const transferTicketCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(transferTicket, {
    auth: 'optional',
    async handler(input, ctx) {
      const sent = await ctx.db.transaction(async (tx) => {
        const found = await lockHeldTicket(tx, ctx, { onOrder, accessToken: input.accessToken }, eq(ticket.id, input.ticketId));
        if (found.ticket.status !== 'valid' || found.ticket.checkedInAt !== null) throw notTransferable();
        if (!transferUntil(found.ticket, found.event, await transferSettingsOf(tx, found.ticket.eventId))) throw closed();
        if (input.email === found.ticket.holderEmail.toLowerCase())
          throw new CallableError('failed-precondition', 'This address holds the ticket already', { reason: 'same-holder' });
        const [sentBefore] = await tx
          .select({ all: count() })
          .from(ticketTransfer)
          .where(eq(ticketTransfer.ticketId, found.ticket.id));
        const [pending] = await tx
          .select({ id: ticketTransfer.id })
          .from(ticketTransfer)
          .where(and(eq(ticketTransfer.ticketId, found.ticket.id), eq(ticketTransfer.status, 'pending')));
        // Offered back for resale: it is sold or taken back first (decision 0066).
        if (pending || (await openListingOf(tx, found.ticket.id))) throw notTransferable();
        if ((sentBefore?.all ?? 0) >= transfersPerTicket)
          throw new CallableError('resource-exhausted', 'This ticket was sent too many times', {
            reason: 'too-many-transfers',
            limit: transfersPerTicket,
          });

        // Who sends it: the signed-in person, else the buyer (by their order's link) or the holder (by the ticket's).
        const given = found.ticket.transferredFrom === null;
        const transferId = randomUUID();
        await tx.insert(ticketTransfer).values({
          id: transferId,
          eventId: found.ticket.eventId,
          ticketId: found.ticket.id,
          orderId: found.order.id,
          fromName: ctx.user?.name ?? (given ? found.order.buyerName : found.ticket.holderName),
          fromEmail: ctx.user?.email ?? (given ? found.order.email : found.ticket.holderEmail),
          fromUserId: ctx.user?.id ?? null,
          toEmail: input.email,
          locale: ctx.locale,
        });
        await onOrder.record(
          tx,
          found.order.id,
          'transfer_sent',
          { ticket: found.ticket.id.slice(0, 8), to: input.email },
          ctx.user?.id ?? null,
        );
        await onOrder.tellOfTransfer(tx, ctx.jobs, transferId, 'sent');
        return { found, transferId };
      });
      ctx.publish(
        ...topicsOf(
          onOrder,
          { order: sent.found.order, organizationId: sent.found.event.organizationId },
          { transferId: sent.transferId, ticketIds: [sent.found.ticket.id], userIds: [sent.found.ticket.holderUserId] },
        ),
      );
      return { transferId: sent.transferId };
    },
  });

/** A transfer and its ticket, locked (the ticket first, as every step on a ticket locks it). */
async function lockTransfer(tx: Tx, transferId: string) {
  const [known] = await tx
    .select({ ticketId: ticketTransfer.ticketId })
    .from(ticketTransfer)
    .where(eq(ticketTransfer.id, transferId));
  if (!known) throw new CallableError('not-found', 'No such transfer');
  const [found] = await tx
    .select({
      transfer: ticketTransfer,
      ticket,
      order: { id: order.id, eventId: order.eventId, buyerId: order.buyerId },
      event: {
        status: event.status,
        startsAt: event.startsAt,
        organizationId: event.organizationId,
        checkinKey: event.checkinKey,
      },
    })
    .from(ticketTransfer)
    .innerJoin(ticket, eq(ticket.id, ticketTransfer.ticketId))
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(event, eq(event.id, ticket.eventId))
    .where(eq(ticketTransfer.id, transferId))
    .for('update', { of: [ticket, ticketTransfer] });
  if (!found) throw new CallableError('not-found', 'No such transfer');
  return found;
}

const acceptTransferCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(acceptTransfer, {
    auth: 'optional',
    async handler(input, ctx) {
      if (!transferTokenOpens(ctx.config, input.transferId, input.token))
        throw new CallableError('not-found', 'No such transfer');
      const accepted = await ctx.db.transaction(async (tx) => {
        const found = await lockTransfer(tx, input.transferId);
        if (found.transfer.status !== 'pending') throw decided(found.transfer.status);
        if (found.ticket.status !== 'valid' || found.ticket.checkedInAt !== null) throw notTransferable();
        if (!transferUntil(found.ticket, found.event, await transferSettingsOf(tx, found.ticket.eventId))) throw closed();
        // The questions asked of each attendee are asked of the person who will come.
        const answers = checkTicketAnswers(await questionsOf(tx, found.ticket.eventId), found.ticket.ticketTypeId, input.answers);
        const newTicketId = await reissueTicket(tx, {
          ticketId: found.ticket.id,
          checkinKey: found.event.checkinKey,
          holder: { name: input.name, email: found.transfer.toEmail, userId: ctx.user?.id ?? null },
          answers,
        });
        if (!newTicketId) throw notTransferable();
        await tx
          .update(ticketTransfer)
          .set({ status: 'accepted', toName: input.name, newTicketId, decidedAt: new Date() })
          .where(eq(ticketTransfer.id, found.transfer.id));
        await onOrder.record(
          tx,
          found.order.id,
          'ticket_transferred',
          { from: found.transfer.fromName, to: input.name, ticket: newTicketId.slice(0, 8) },
          ctx.user?.id ?? null,
        );
        await onOrder.tellOfTransfer(tx, ctx.jobs, found.transfer.id, 'accepted');
        await recordAudit(tx, {
          organizationId: found.event.organizationId,
          eventId: found.ticket.eventId,
          actor: { id: ctx.user?.id ?? null, name: input.name, email: found.transfer.toEmail },
          action: 'ticket.transfer',
          target: found.ticket.holderName,
          details: { from: found.transfer.fromEmail, to: found.transfer.toEmail, ticketId: found.ticket.id, newTicketId },
        });
        return { found, newTicketId };
      });
      const { found, newTicketId } = accepted;
      ctx.publish(
        ...topicsOf(
          onOrder,
          { order: found.order, organizationId: found.event.organizationId },
          {
            transferId: found.transfer.id,
            ticketIds: [found.ticket.id, newTicketId],
            userIds: [found.ticket.holderUserId, found.transfer.fromUserId, ctx.user?.id ?? null],
          },
        ),
      );
      return { ticketId: newTicketId, accessToken: ticketAccessToken(ctx.config, newTicketId) };
    },
  });

/**
 * Whether the signed-in caller is an admin of the transfer's event: asked before its transaction
 * (the embedded database has one connection, which the transaction holds).
 */
async function isEventAdmin(ctx: CallContext, transferId: string): Promise<boolean> {
  if (!ctx.user) return false;
  const [known] = await ctx.db
    .select({ eventId: ticketTransfer.eventId })
    .from(ticketTransfer)
    .where(eq(ticketTransfer.id, transferId));
  if (!known) return false;
  try {
    await requireEventRole(ctx.db, ctx.user, known.eventId, 'admin');
    return true;
  } catch (error) {
    if (error instanceof CallableError) return false;
    throw error;
  }
}

/** Who withdraws a transfer: its recipient (by its link), its sender (who holds the ticket), or an admin; null: nobody allowed. */
function withdrawer(
  ctx: CallContext,
  onOrder: TicketChangeOnOrder,
  found: Awaited<ReturnType<typeof lockTransfer>>,
  input: { transferId: string; token?: string; accessToken?: string },
  admin: boolean,
): 'recipient' | 'sender' | 'admin' | null {
  if (input.token !== undefined) return transferTokenOpens(ctx.config, input.transferId, input.token) ? 'recipient' : null;
  const caller = {
    userId: ctx.user?.id ?? null,
    accessToken: input.accessToken,
    orderTokenOpens: (orderId: string, token: string) => onOrder.tokenOpens(ctx.config, orderId, token),
  };
  if (holdsTicket(ctx.config, caller, found)) return 'sender';
  return admin ? 'admin' : null;
}

const cancelTransferCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(cancelTransfer, {
    auth: 'optional',
    async handler(input, ctx) {
      if (!ctx.user && input.token === undefined && input.accessToken === undefined)
        throw new CallableError('unauthenticated', 'Sign in to do this');
      const admin = input.token === undefined && (await isEventAdmin(ctx, input.transferId));
      const cancelled = await ctx.db.transaction(async (tx) => {
        const found = await lockTransfer(tx, input.transferId);
        const by = withdrawer(ctx, onOrder, found, input, admin);
        if (!by) throw new CallableError('not-found', 'No such transfer');
        if (found.transfer.status !== 'pending') throw decided(found.transfer.status);
        const status = by === 'recipient' ? 'declined' : 'cancelled';
        await tx.update(ticketTransfer).set({ status, decidedAt: new Date() }).where(eq(ticketTransfer.id, found.transfer.id));
        await onOrder.record(tx, found.order.id, 'transfer_cancelled', { by, to: found.transfer.toEmail }, ctx.user?.id ?? null);
        return { found, status };
      });
      const { found, status } = cancelled;
      ctx.publish(
        ...topicsOf(
          onOrder,
          { order: found.order, organizationId: found.event.organizationId },
          { transferId: found.transfer.id, ticketIds: [found.ticket.id], userIds: [found.ticket.holderUserId] },
        ),
      );
      return { status };
    },
  });

/** An admin turns transfers on or off for an event, and sets how long before the start they close. */
const configureTransfersCallable = defineCallable(configureTransfers, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await ctx.db.transaction(async (tx) => {
      const values = {
        enabled: input.enabled,
        closesHoursBeforeStart: input.closesHoursBeforeStart,
        resaleEnabled: input.resaleEnabled,
        resaleFee: input.resaleFee,
        updatedAt: new Date(),
      };
      await tx
        .insert(transferSettings)
        .values({ eventId: found.id, ...values })
        .onConflictDoUpdate({ target: transferSettings.eventId, set: values });
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: input.enabled ? 'transfers.open' : 'transfers.close',
        target: found.title,
        details: {
          closesHoursBeforeStart: input.closesHoursBeforeStart,
          resaleEnabled: input.resaleEnabled,
          resaleFee: input.resaleFee,
        },
      });
    });
    // Every holder's page shows until when their tickets may be sent: they watch the event.
    ctx.publish(eventTransfersTopic(found.id), eventTopic(found.id));
    return { enabled: input.enabled };
  },
});

/** The transfers' callables, with the orders module's side of them (composition.ts). */
export const transferCallables = (onOrder: TicketChangeOnOrder) => [
  transferTicketCallable(onOrder),
  acceptTransferCallable(onOrder),
  cancelTransferCallable(onOrder),
  configureTransfersCallable,
];
