import { changeAnswers } from '@admit/shared/questions';
import { setTicketHolder } from '@admit/shared/tickets';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Config } from '../../platform/config';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineCallable, type CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import { checkTicketAnswers, questionsOf } from '../questions/questions.api';
import { ticket } from './schema';
import { emitTicketWebhook } from './ticket-resource';
import { order } from '../orders/schema';
import { holdsTicket } from './ticket-access';

/**
 * What a holder's change to a ticket does to its order: a line on the order's timeline (in the
 * change's transaction), the emails a transfer sends, and the topics its watchers listen to. The
 * orders module's, handed in by composition.ts: tickets sit below orders and do not import them
 * (docs/decisions/0059-module-seams.md).
 */
export interface TicketChangeOnOrder {
  record(
    tx: Tx,
    orderId: string,
    kind:
      | 'holder_changed'
      | 'answers_changed'
      | 'transfer_sent'
      | 'transfer_cancelled'
      | 'ticket_transferred'
      | 'resale_listed'
      | 'resale_withdrawn',
    detail: Record<string, string | number | null>,
    actorId: string | null,
  ): Promise<void>;
  /** Enqueues a transfer's emails, in its transaction: the link to its recipient, or, once accepted, the ticket to them and a word to its sender. */
  tellOfTransfer(tx: Tx, jobs: JobSender, transferId: string, what: 'sent' | 'accepted'): Promise<void>;
  topics(found: { id: string; eventId: string; buyerId: string | null }, organizationId: string): string[];
  /** Whether a guest's token (from their email) opens the order (decision 0060). */
  tokenOpens(config: Pick<Config, 'AUTH_SECRET'>, orderId: string, token: string | undefined): boolean;
}

/**
 * A ticket the caller holds (ticket-access.ts), locked until the transaction ends, with its order
 * and event, and whether what its holder says about it can still change: valid, of an event not
 * cancelled and not started (afterwards the door's lists must stay as they were synced). Anyone
 * else's ticket is `not-found`, as one that does not exist.
 */
export async function lockHeldTicket(
  tx: Tx,
  ctx: CallContext,
  guest: { onOrder: TicketChangeOnOrder; accessToken: string | undefined },
  which: SQL | undefined,
) {
  if (!ctx.user && guest.accessToken === undefined) throw new CallableError('unauthenticated', 'Sign in to do this');
  const [found] = await tx
    .select({
      ticket,
      order,
      event: {
        status: event.status,
        startsAt: event.startsAt,
        organizationId: event.organizationId,
        checkinKey: event.checkinKey,
        title: event.title,
      },
    })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(event, eq(event.id, ticket.eventId))
    .where(which)
    .for('update', { of: ticket });
  const caller = {
    userId: ctx.user?.id ?? null,
    accessToken: guest.accessToken,
    orderTokenOpens: (orderId: string, token: string) => guest.onOrder.tokenOpens(ctx.config, orderId, token),
  };
  if (!found || !holdsTicket(ctx.config, caller, found)) throw new CallableError('not-found', 'No such ticket');
  const open = found.ticket.status === 'valid' && found.event.status !== 'cancelled' && found.event.startsAt > new Date();
  return { ...found, open };
}

/**
 * The buyer names the person a ticket is for (its holder name, which defaults to the buyer's),
 * until the event starts: afterwards the door's lists must stay as they were printed and synced.
 * Only the order's buyer may; anyone else gets `not-found`, as for a ticket that does not exist.
 */
const setTicketHolderCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(setTicketHolder, {
    auth: 'optional',
    async handler(input, ctx) {
      const changed = await ctx.db.transaction(async (tx) => {
        const found = await lockHeldTicket(tx, ctx, { onOrder, accessToken: input.accessToken }, eq(ticket.id, input.ticketId));
        if (!found.open)
          throw new CallableError('failed-precondition', 'The holder cannot change any more', { reason: 'holder-fixed' });
        if (found.ticket.holderName === input.name) return null;
        await tx.update(ticket).set({ holderName: input.name }).where(eq(ticket.id, found.ticket.id));
        await onOrder.record(
          tx,
          found.order.id,
          'holder_changed',
          { from: found.ticket.holderName, to: input.name },
          ctx.user?.id ?? null,
        );
        await emitTicketWebhook(tx, { ticketId: found.ticket.id, type: 'ticket.holder_changed' });
        return found;
      });
      if (changed) ctx.publish(...onOrder.topics(changed.order, changed.event.organizationId));
      return { holderName: input.name };
    },
  });

/**
 * The buyer changes a ticket's answers to the event's questions, until the event starts (as its
 * holder): checked as at checkout against the questions as they are now. Only the order's buyer may.
 */
const changeAnswersCallable = (onOrder: TicketChangeOnOrder) =>
  defineCallable(changeAnswers, {
    auth: 'optional',
    async handler(input, ctx) {
      const changed = await ctx.db.transaction(async (tx) => {
        const found = await lockHeldTicket(
          tx,
          ctx,
          { onOrder, accessToken: input.accessToken },
          and(eq(ticket.id, input.ticketId), eq(ticket.orderId, input.orderId)),
        );
        if (!found.open)
          throw new CallableError('failed-precondition', 'Answers cannot change any more', { reason: 'answers-closed' });
        const answers = checkTicketAnswers(await questionsOf(tx, found.ticket.eventId), found.ticket.ticketTypeId, input.answers);
        await tx.update(ticket).set({ answers }).where(eq(ticket.id, found.ticket.id));
        await onOrder.record(
          tx,
          found.order.id,
          'answers_changed',
          { ticket: found.ticket.id.slice(0, 8) },
          ctx.user?.id ?? null,
        );
        return found;
      });
      ctx.publish(...onOrder.topics(changed.order, changed.event.organizationId));
      return {};
    },
  });

/** The buyer's changes to their tickets: the holder's name, and the answers to the event's questions. */
export const ticketHolderCallables = (onOrder: TicketChangeOnOrder) => [
  setTicketHolderCallable(onOrder),
  changeAnswersCallable(onOrder),
];
