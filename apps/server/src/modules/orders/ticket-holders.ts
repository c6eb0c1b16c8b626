import { changeAnswers } from '@admit/shared/questions';
import { setTicketHolder } from '@admit/shared/tickets';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { defineCallable, type CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import { checkTicketAnswers, questionsOf } from '../questions/questions.api';
import { ticket } from '../tickets/schema';
import { tokenOpens } from './order-access';
import { recordActivity } from './order-activity';
import { order } from './schema';
import { orderTopics } from './topics';

/**
 * A ticket of the caller's own order, locked until the transaction ends, with its order and event,
 * and whether what the buyer says about it can still change: valid, of an event not cancelled and
 * not started (afterwards the door's lists must stay as they were synced). Anyone else's ticket is
 * `not-found`, as one that does not exist. A guest's token opens the tickets of its order (decision 0060).
 */
async function lockBuyersTicket(tx: Tx, ctx: CallContext, accessToken: string | undefined, which: SQL | undefined) {
  if (!ctx.user && accessToken === undefined) throw new CallableError('unauthenticated', 'Sign in to do this');
  const [found] = await tx
    .select({
      ticket,
      order,
      event: { status: event.status, startsAt: event.startsAt, organizationId: event.organizationId },
    })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(event, eq(event.id, ticket.eventId))
    .where(which)
    .for('update', { of: ticket });
  const theirs =
    found &&
    (accessToken !== undefined ? tokenOpens(ctx.config, found.order.id, accessToken) : found.order.buyerId === ctx.user!.id);
  if (!found || !theirs) throw new CallableError('not-found', 'No such ticket');
  const open = found.ticket.status === 'valid' && found.event.status !== 'cancelled' && found.event.startsAt > new Date();
  return { ...found, open };
}

/**
 * The buyer names the person a ticket is for (its holder name, which defaults to the buyer's),
 * until the event starts: afterwards the door's lists must stay as they were printed and synced.
 * Only the order's buyer may; anyone else gets `not-found`, as for a ticket that does not exist.
 */
export const setTicketHolderCallable = defineCallable(setTicketHolder, {
  auth: 'optional',
  async handler(input, ctx) {
    const changed = await ctx.db.transaction(async (tx) => {
      const found = await lockBuyersTicket(tx, ctx, input.accessToken, eq(ticket.id, input.ticketId));
      if (!found.open)
        throw new CallableError('failed-precondition', 'The holder cannot change any more', { reason: 'holder-fixed' });
      if (found.ticket.holderName === input.name) return null;
      await tx.update(ticket).set({ holderName: input.name }).where(eq(ticket.id, found.ticket.id));
      await recordActivity(tx, found.order.id, 'holder_changed', { from: found.ticket.holderName, to: input.name }, ctx.user?.id);
      return found;
    });
    if (changed) ctx.publish(...orderTopics(changed.order, changed.event.organizationId));
    return { holderName: input.name };
  },
});

/**
 * The buyer changes a ticket's answers to the event's questions, until the event starts (as its
 * holder): checked as at checkout against the questions as they are now. Only the order's buyer may.
 */
export const changeAnswersCallable = defineCallable(changeAnswers, {
  auth: 'optional',
  async handler(input, ctx) {
    const changed = await ctx.db.transaction(async (tx) => {
      const found = await lockBuyersTicket(
        tx,
        ctx,
        input.accessToken,
        and(eq(ticket.id, input.ticketId), eq(ticket.orderId, input.orderId)),
      );
      if (!found.open)
        throw new CallableError('failed-precondition', 'Answers cannot change any more', { reason: 'answers-closed' });
      const answers = checkTicketAnswers(await questionsOf(tx, found.ticket.eventId), found.ticket.ticketTypeId, input.answers);
      await tx.update(ticket).set({ answers }).where(eq(ticket.id, found.ticket.id));
      await recordActivity(tx, found.order.id, 'answers_changed', { ticket: found.ticket.id.slice(0, 8) }, ctx.user?.id);
      return found;
    });
    ctx.publish(...orderTopics(changed.order, changed.event.organizationId));
    return {};
  },
});
