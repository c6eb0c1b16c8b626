import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { checkIn } from '../checkin/schema';
import { ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import { exportedText, isoInstant, localTimeFormatter } from './csv-format';
import { pages, pageSize, type ExportDefinition } from './export-definition';

/** An event's scans at the door (its admins): every verdict, with the device and the ticket it was for. */
export const checkInsExport: ExportDefinition = {
  minimumRole: 'admin',
  header: () => [
    'check_in_id',
    'scanned_at',
    'scanned_at_local',
    'time_zone',
    'result',
    'device',
    'ticket_id',
    'ticket_type',
    'holder_name',
  ],
  async count({ db, event: found }) {
    const [row] = await db.select({ n: count() }).from(checkIn).where(eq(checkIn.eventId, found.id));
    return row?.n ?? 0;
  },
  async *rows({ db, event: found }) {
    const local = localTimeFormatter(found.timeZone);
    const read = (after: SQL | undefined) =>
      db
        .select({
          id: checkIn.id,
          cursorAt: sql<string>`${checkIn.scannedAt}::text`,
          scannedAt: checkIn.scannedAt,
          result: checkIn.result,
          device: exportedText(checkIn.device),
          ticketId: checkIn.ticketId,
          ticketType: exportedText<string | null>(ticketType.name),
          holderName: exportedText<string | null>(ticket.holderName),
        })
        .from(checkIn)
        .leftJoin(ticket, eq(ticket.id, checkIn.ticketId))
        .leftJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
        .where(and(eq(checkIn.eventId, found.id), after))
        .orderBy(asc(checkIn.scannedAt), asc(checkIn.id))
        .limit(pageSize);
    for await (const row of pages(read, sql`${checkIn.scannedAt}`, sql`${checkIn.id}`)) {
      yield [
        row.id,
        isoInstant(row.scannedAt),
        local(row.scannedAt),
        found.timeZone,
        row.result,
        row.device,
        row.ticketId ?? '',
        row.ticketType ?? '',
        row.holderName ?? '',
      ];
    }
  },
};
