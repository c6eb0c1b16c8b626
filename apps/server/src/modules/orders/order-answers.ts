import { hasQuestionsFor, shownAnswers, type QuestionRow } from '@admit/shared/questions';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { ticketType } from '../events/schema';
import { ticket, ticketTransfer } from '../tickets/schema';
import { orderLine } from './schema';

export type ValidTicket = Awaited<ReturnType<typeof validTicketsOf>>[number];

/**
 * The order's valid tickets, in the ticket types' order, then the order they were issued in, with
 * what decides whether each may be sent on (decision 0065).
 */
export function validTicketsOf(db: Db, orderId: string) {
  return db
    .select({
      id: ticket.id,
      ticketTypeId: ticket.ticketTypeId,
      holderName: ticket.holderName,
      answers: ticket.answers,
      status: ticket.status,
      checkedInAt: ticket.checkedInAt,
      transferredFrom: ticket.transferredFrom,
      holderUserId: ticket.holderUserId,
      pendingTransfer: sql<{ id: string; toEmail: string } | null>`(
        select json_build_object('id', ${ticketTransfer.id}, 'toEmail', ${ticketTransfer.toEmail}) from ${ticketTransfer}
         where ${ticketTransfer.ticketId} = ${ticket.id} and ${ticketTransfer.status} = 'pending')`,
    })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(and(eq(ticket.orderId, orderId), eq(ticket.status, 'valid')))
    .orderBy(asc(ticketType.position), asc(ticketType.id), asc(ticket.createdAt), asc(ticket.id));
}

/**
 * Each ticket's answers to the event's questions, as the buyer sees them: of the order's valid
 * tickets once they exist (each can be changed), of its held places while it waits for its payment;
 * the tickets of types asked nothing are left out, as at checkout. In the ticket types' order, then
 * the order the answers were given in, so that "Workshop 2 of 2" is the same person everywhere.
 * `tickets`: the order's valid tickets (validTicketsOf).
 */
export async function attendeesOf(
  db: Db,
  found: { id: string; status: string },
  questions: readonly QuestionRow[],
  tickets: readonly ValidTicket[],
) {
  if (questions.length === 0) return [];
  if (found.status === 'pending') {
    const lines = await db
      .select({ ticketTypeId: orderLine.ticketTypeId, answers: orderLine.answers })
      .from(orderLine)
      .innerJoin(ticketType, eq(ticketType.id, orderLine.ticketTypeId))
      .where(eq(orderLine.orderId, found.id))
      .orderBy(asc(ticketType.position), asc(ticketType.id));
    return lines.flatMap((line) =>
      line.answers.map((answers) => ({
        ticketId: null,
        ticketTypeId: line.ticketTypeId,
        holderName: null,
        answers: shownAnswers(questions, answers),
      })),
    );
  }
  // The tickets asked something, as at checkout (or answered before their type's questions went).
  const asked = tickets.filter((one) => hasQuestionsFor(questions, one.ticketTypeId) || Object.keys(one.answers).length > 0);
  return asked.map((one) => ({
    ticketId: one.id,
    ticketTypeId: one.ticketTypeId,
    holderName: one.holderName,
    answers: shownAnswers(questions, one.answers),
  }));
}
