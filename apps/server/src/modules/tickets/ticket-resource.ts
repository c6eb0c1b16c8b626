import type { TicketResource } from '@admit/shared/api-resources';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { event, ticketType } from '../events/schema';
import { emitWebhook } from '../webhooks/webhooks.api';
import { ticket } from './schema';

/**
 * A ticket as the REST API and the webhooks show it (decision 0063), without its code (what the QR
 * carries admits its holder); null when there is no such ticket.
 */
export async function ticketResource(db: Db, ticketId: string): Promise<TicketResource | null> {
  return (await ticketResources(db, [ticketId]))[0] ?? null;
}

/** Many tickets at once (a page of the REST API's lists) in one query, in the order of `ticketIds`; missing ones left out. */
export async function ticketResources(db: Db, ticketIds: readonly string[]): Promise<TicketResource[]> {
  if (ticketIds.length === 0) return [];
  const rows = await db
    .select({ ticket, ticketTypeName: ticketType.name, organizationId: event.organizationId, timeZone: event.timeZone })
    .from(ticket)
    .innerJoin(event, eq(event.id, ticket.eventId))
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(inArray(ticket.id, [...ticketIds]));
  const byId = new Map(rows.map((row) => [row.ticket.id, row]));
  return ticketIds.flatMap((ticketId) => {
    const row = byId.get(ticketId);
    if (!row) return [];
    const { ticket: t } = row;
    return [
      {
        object: 'ticket' as const,
        id: t.id,
        organization_id: row.organizationId,
        event_id: t.eventId,
        order_id: t.orderId,
        ticket_type_id: t.ticketTypeId,
        ticket_type_name: row.ticketTypeName,
        status: t.status,
        holder_name: t.holderName,
        holder_email: t.holderEmail,
        answers: t.answers,
        checked_in_at: t.checkedInAt?.toISOString() ?? null,
        transferred_from: t.transferredFrom,
        replaced_by: t.replacedBy,
        created_at: t.createdAt.toISOString(),
        time_zone: row.timeZone,
      },
    ];
  });
}

/**
 * Reports a change of a ticket to its organization's webhooks, in the transaction `tx` that makes it
 * (an outbox, decision 0063), with the ticket as it is after the change.
 */
export async function emitTicketWebhook(
  tx: Tx,
  input: { ticketId: string; type: 'ticket.checked_in' | 'ticket.holder_changed' | 'ticket.transferred' | 'ticket.resold' },
): Promise<void> {
  const [found] = await tx
    .select({ organizationId: event.organizationId })
    .from(ticket)
    .innerJoin(event, eq(event.id, ticket.eventId))
    .where(eq(ticket.id, input.ticketId));
  if (!found) return;
  await emitWebhook(tx, {
    organizationId: found.organizationId,
    type: input.type,
    objectId: input.ticketId,
    payload: () => ticketResource(tx, input.ticketId),
  });
}
