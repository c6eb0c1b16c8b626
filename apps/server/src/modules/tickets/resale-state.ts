import type { ResaleState, ResaleTerms } from '@admit/shared/resale';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import { event } from '../events/schema';
import { order, orderLine } from '../orders/schema';
import { ticket, ticketResale, ticketTransfer, transferSettings } from './schema';
import { resaleTermsOf, transferSettingsColumns } from './transfer-window';

const open = alias(ticketResale, 'open_resale');
const pending = alias(ticketTransfer, 'pending_transfer');

export interface TicketResale {
  resale: ResaleState | null;
  resaleTerms: ResaleTerms | null;
}

/**
 * What each ticket's holder sees of resale (decision 0066): its open offer, if any, and otherwise
 * what offering it back would give them now. One query for all the tickets a page shows.
 */
export async function resaleOfTickets(db: Db, ticketIds: readonly string[]): Promise<Map<string, TicketResale>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await db
    .select({
      ticket: { id: ticket.id, status: ticket.status, checkedInAt: ticket.checkedInAt, transferredFrom: ticket.transferredFrom },
      event: { status: event.status, startsAt: event.startsAt },
      settings: transferSettingsColumns,
      orderStatus: order.status,
      currency: order.currency,
      price: sql<number>`(select max(${orderLine.unitPrice}) from ${orderLine}
        where ${orderLine.orderId} = ${ticket.orderId} and ${orderLine.ticketTypeId} = ${ticket.ticketTypeId})`,
      open: { id: open.id, status: open.status, price: open.price, fee: open.fee, listedAt: open.listedAt },
      pendingId: pending.id,
    })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(event, eq(event.id, ticket.eventId))
    .leftJoin(transferSettings, eq(transferSettings.eventId, ticket.eventId))
    .leftJoin(open, and(eq(open.ticketId, ticket.id), inArray(open.status, ['listed', 'held'])))
    .leftJoin(pending, and(eq(pending.ticketId, ticket.id), eq(pending.status, 'pending')))
    .where(inArray(ticket.id, [...ticketIds]));
  return new Map(
    rows.map((row) => {
      const listing = row.open?.id ? row.open : null;
      const resale: ResaleState | null = listing
        ? {
            id: listing.id,
            status: listing.status as ResaleState['status'],
            price: listing.price,
            fee: listing.fee,
            payout: listing.price - listing.fee,
            currency: row.currency,
            listedAt: listing.listedAt.toISOString(),
          }
        : null;
      const resaleTerms = resaleTermsOf(row.ticket, row.event, row.settings?.enabled == null ? null : row.settings, {
        orderStatus: row.orderStatus,
        price: Number(row.price ?? 0),
        currency: row.currency,
        busy: listing !== null || row.pendingId !== null,
      });
      return [row.ticket.id, { resale, resaleTerms }];
    }),
  );
}
