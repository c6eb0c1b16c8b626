import type { Answers } from '@admit/shared/questions';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { ticket } from './schema';
import { newTicketCode } from './ticket-code';
import { emitTicketWebhook } from './ticket-resource';
import { endListingsOf } from './resale';

// A ticket's life: issued valid for a completed order, void when refunded (valid again if the
// refund is refused), admitted at the door once. Each change is written here, once; the places a
// ticket takes are counted by the events module (events.api.ts), in the same transaction.

/** The tickets of one line of an order: how many of a ticket type, and whose name they carry. */
export interface TicketsToIssue {
  ticketTypeId: string;
  quantity: number;
  holderName: string;
  holderEmail: string;
  /** Each ticket's answers to the event's questions, in order (none: nothing was asked). */
  answers?: readonly Answers[];
}

/** Issues the tickets of a completed order, each with a new code signed with the event's check-in key. */
export async function issueTickets(
  tx: Tx,
  input: { orderId: string; event: { id: string; checkinKey: string }; tickets: readonly TicketsToIssue[] },
): Promise<void> {
  await issueTicketsForOrders(tx, {
    event: input.event,
    orders: [{ orderId: input.orderId, tickets: input.tickets }],
  });
}

/** issueTickets for many orders of one event at once (a guest list): few statements, whatever the number. */
export async function issueTicketsForOrders(
  tx: Tx,
  input: {
    event: { id: string; checkinKey: string };
    orders: readonly { orderId: string; tickets: readonly TicketsToIssue[] }[];
  },
): Promise<void> {
  const rows = input.orders.flatMap(({ orderId, tickets }) =>
    tickets.flatMap((line) =>
      Array.from({ length: line.quantity }, (_, index) => ({
        // A microsecond apart, in the order given: an order's tickets keep the order their answers were given in.
        createdAt: sql`now() + make_interval(secs => ${index / 1_000_000})`,
        id: randomUUID(),
        orderId,
        ticketTypeId: line.ticketTypeId,
        eventId: input.event.id,
        code: newTicketCode(input.event.checkinKey),
        holderName: line.holderName,
        holderEmail: line.holderEmail,
        answers: line.answers?.[index] ?? {},
      })),
    ),
  );
  // In slices: one statement's parameters stay far below PostgreSQL's limit of 65,535.
  for (let start = 0; start < rows.length; start += 5_000) await tx.insert(ticket).values(rows.slice(start, start + 5_000));
}

/**
 * Makes valid tickets void (refunded). All of them or none: when one was no longer valid (changed
 * by someone else meanwhile), `aborted`, and the caller's transaction rolls back.
 */
export async function voidTickets(tx: Tx, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length === 0) return;
  const voided = await tx
    .update(ticket)
    .set({ status: 'void' })
    .where(and(inArray(ticket.id, [...ticketIds]), eq(ticket.status, 'valid')))
    .returning({ id: ticket.id });
  if (voided.length !== ticketIds.length) throw new CallableError('aborted', 'A ticket changed meanwhile; try again');
  // A void ticket is offered back no more (decision 0066).
  await endListingsOf(tx, ticketIds);
}

/**
 * Issues a valid, not yet admitted ticket anew to the person it was sent to (decision 0065): a new
 * ticket in the same order, with a new code, their name and answers, and the old one void (its code
 * no longer admits), in the caller's transaction. Its place stays taken: one ticket went, one came.
 * Undefined when the ticket was refunded, admitted or sent on meanwhile.
 */
export async function reissueTicket(
  tx: Tx,
  input: {
    ticketId: string;
    checkinKey: string;
    holder: { name: string; email: string; userId: string | null };
    answers: Answers;
  },
): Promise<string | undefined> {
  const newId = randomUUID();
  const [old] = await tx
    .update(ticket)
    .set({ status: 'void', replacedBy: newId })
    .where(and(eq(ticket.id, input.ticketId), eq(ticket.status, 'valid'), isNull(ticket.checkedInAt), isNull(ticket.replacedBy)))
    .returning();
  if (!old) return undefined;
  await tx.insert(ticket).values({
    id: newId,
    orderId: old.orderId,
    ticketTypeId: old.ticketTypeId,
    eventId: old.eventId,
    code: newTicketCode(input.checkinKey),
    holderName: input.holder.name,
    holderEmail: input.holder.email,
    holderUserId: input.holder.userId,
    transferredFrom: old.id,
    answers: input.answers,
    // Its place among its order's tickets, and its sale's day in the analytics, are the old one's.
    createdAt: old.createdAt,
  });
  await emitTicketWebhook(tx, { ticketId: newId, type: 'ticket.transferred' });
  return newId;
}

/**
 * Tickets sent to a verified address and accepted without an account become the account's, as a
 * guest's orders do (decision 0060): they show on My tickets. Returns the holder topics to publish.
 */
export async function claimReceivedTickets(db: Db, person: { id: string; email: string; emailVerified: boolean }) {
  if (!person.emailVerified) return [];
  return db
    .update(ticket)
    .set({ holderUserId: person.id })
    .where(
      and(
        isNotNull(ticket.transferredFrom),
        isNull(ticket.holderUserId),
        eq(ticket.status, 'valid'),
        eq(sql`lower(${ticket.holderEmail})`, person.email.toLowerCase()),
      ),
    )
    .returning({ id: ticket.id });
}

/** Makes void tickets valid again (a refund the provider refused); their places are the caller's to take back first. */
export async function revalidateTickets(tx: Tx, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await tx
    .update(ticket)
    .set({ status: 'valid' })
    .where(and(inArray(ticket.id, [...ticketIds]), eq(ticket.status, 'void')));
}

/**
 * Admits a valid ticket at the door, if nobody has yet: one conditional update, so of two doors
 * scanning one ticket at once exactly one admits it. True when this call admitted it.
 */
export async function admitTicket(tx: Tx, input: { ticketId: string; at: Date; device: string }): Promise<boolean> {
  const admitted = await tx
    .update(ticket)
    .set({ checkedInAt: input.at, checkedInDevice: input.device })
    .where(and(eq(ticket.id, input.ticketId), isNull(ticket.checkedInAt), eq(ticket.status, 'valid')))
    .returning({ id: ticket.id });
  if (admitted.length > 0) await emitTicketWebhook(tx, { ticketId: input.ticketId, type: 'ticket.checked_in' });
  return admitted.length > 0;
}

/** Takes an admission back (undo at the door): the ticket admits again. */
export async function withdrawAdmission(tx: Tx, ticketId: string): Promise<void> {
  await tx.update(ticket).set({ checkedInAt: null, checkedInDevice: null }).where(eq(ticket.id, ticketId));
}

/**
 * issueTickets inside a larger statement (orders/place-order.ts): the tickets of the orders in the
 * CTE `orders` (its `position`, `order_id`, `buyer_name` and `email` columns), each with the id, code
 * and answers (JSON) made for it, matched by the order's position; an order's tickets a microsecond
 * apart in their `nth` order, as issueTicketsForOrders keeps them.
 */
export function issueTicketsInStatement(input: {
  eventId: string;
  ticketTypeId: string;
  orders: SQL;
  tickets: readonly { position: number; nth: number; id: string; code: string; answers: string }[];
}): SQL {
  const column = <T>(values: readonly T[]) => sql.param([...values]);
  return sql`insert into ticket (id, order_id, ticket_type_id, event_id, code, holder_name, holder_email, answers, created_at)
    select one.id, placed.order_id, ${input.ticketTypeId}, ${input.eventId}, one.code, placed.buyer_name, placed.email, one.answers,
           now() + make_interval(secs => one.nth / 1000000.0)
      from unnest(${column(input.tickets.map((one) => one.position))}::int[], ${column(input.tickets.map((one) => one.nth))}::int[],
                  ${column(input.tickets.map((one) => one.id))}::text[], ${column(input.tickets.map((one) => one.code))}::text[],
                  ${column(input.tickets.map((one) => one.answers))}::jsonb[]) as one (position, nth, id, code, answers)
      join ${input.orders} placed on placed.position = one.position`;
}
