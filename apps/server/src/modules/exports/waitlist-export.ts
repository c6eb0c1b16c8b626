import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import { ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { waitlistEntry } from '../waitlist/waitlist.api';
import { isoInstant, localTimeFormatter } from './csv-format';
import { pages, pageSize, type ExportDefinition } from './export-definition';

/** An offered entry's outcome: its order's (paid or accepted: tickets; ended unpaid: expired). */
const outcome = (status: string, orderStatus: string | null) =>
  status !== 'offered'
    ? status
    : orderStatus === 'pending'
      ? 'offered'
      : ['expired', 'cancelled', null].includes(orderStatus)
        ? 'expired'
        : 'accepted';

/** The event's entries but guests' not confirmed yet, as the organizer's list shows them. */
const listed = (eventId: string) => and(eq(waitlistEntry.eventId, eventId), ne(waitlistEntry.status, 'unconfirmed'));

/**
 * An event's waiting list (its admins), in the order people joined: who waits for what, their place
 * while they wait, and each offer with its hold and outcome (decision 0064).
 */
export const waitlistExport: ExportDefinition = {
  minimumRole: 'admin',
  header: () => [
    'entry_id',
    'name',
    'email',
    'ticket_type',
    'quantity',
    'status',
    'joined_at',
    'joined_at_local',
    'offered_at',
    'offered_quantity',
    'offer_order_id',
    'offer_held_until',
    'time_zone',
  ],
  async count({ db, event: found }) {
    const [row] = await db.select({ n: count() }).from(waitlistEntry).where(listed(found.id));
    return row?.n ?? 0;
  },
  async *rows({ db, event: found }) {
    const local = localTimeFormatter(found.timeZone);
    const read = (after: SQL | undefined) =>
      db
        .select({
          id: waitlistEntry.id,
          cursorAt: sql<string>`${waitlistEntry.joinedAt}::text`,
          entry: waitlistEntry,
          typeName: ticketType.name,
          orderStatus: order.status,
          holdExpiresAt: order.holdExpiresAt,
        })
        .from(waitlistEntry)
        .innerJoin(ticketType, eq(ticketType.id, waitlistEntry.ticketTypeId))
        .leftJoin(order, eq(order.id, waitlistEntry.offerOrderId))
        .where(and(listed(found.id), after))
        .orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id))
        .limit(pageSize);
    for await (const row of pages(read, sql`${waitlistEntry.joinedAt}`, sql`${waitlistEntry.id}`)) {
      const { entry } = row;
      yield [
        entry.id,
        entry.name,
        entry.email,
        row.typeName,
        entry.quantity,
        outcome(entry.status, row.orderStatus),
        isoInstant(entry.joinedAt),
        local(entry.joinedAt),
        entry.offeredAt ? isoInstant(entry.offeredAt) : '',
        entry.offeredQuantity ?? '',
        entry.offerOrderId ?? '',
        row.holdExpiresAt ? isoInstant(row.holdExpiresAt) : '',
        found.timeZone,
      ];
    }
  },
};
