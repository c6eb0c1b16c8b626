import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { eventCode } from '../codes/schema';
import { ticketType } from '../events/schema';
import { usesOf } from '../codes/codes.api';
import { isoInstant, localTimeFormatter, moneyFormatter } from './csv-format';
import { pages, pageSize, type ExportDefinition } from './export-definition';

/**
 * An event's discount and access codes (its admins): each code with the link that carries it, what
 * it does, its limits and window, and how many tickets were bought with it. Made to give codes out
 * (a mail merge of made-up codes) and to count what they sold.
 */
export const codesExport: ExportDefinition = {
  minimumRole: 'admin',
  header: () => [
    'code',
    'link',
    'ticket_types',
    'discount_percent',
    'discount_amount_minor',
    'discount_amount',
    'min_quantity',
    'max_uses',
    'max_per_buyer',
    'used',
    'valid_from',
    'valid_from_local',
    'valid_until',
    'valid_until_local',
    'time_zone',
    'created_at',
  ],
  async count({ db, event: found }) {
    const [row] = await db.select({ n: count() }).from(eventCode).where(eq(eventCode.eventId, found.id));
    return row?.n ?? 0;
  },
  async *rows({ db, event: found, locale, publicUrl }) {
    const local = localTimeFormatter(found.timeZone);
    const money = moneyFormatter(locale, found.currency);
    const typeNames = new Map(
      (
        await db.select({ id: ticketType.id, name: ticketType.name }).from(ticketType).where(eq(ticketType.eventId, found.id))
      ).map((type) => [type.id, type.name]),
    );
    const read = (after: SQL | undefined) =>
      db
        .select({
          id: eventCode.id,
          cursorAt: sql<string>`${eventCode.createdAt}::text`,
          createdAt: eventCode.createdAt,
          code: eventCode.code,
          ticketTypeIds: eventCode.ticketTypeIds,
          discountPercent: eventCode.discountPercent,
          discountAmount: eventCode.discountAmount,
          minQuantity: eventCode.minQuantity,
          maxUses: eventCode.maxUses,
          maxPerBuyer: eventCode.maxPerBuyer,
          validFrom: eventCode.validFrom,
          validUntil: eventCode.validUntil,
        })
        .from(eventCode)
        .where(and(eq(eventCode.eventId, found.id), after))
        .orderBy(asc(eventCode.createdAt), asc(eventCode.id))
        .limit(pageSize);
    let batch: Awaited<ReturnType<typeof read>> = [];
    const flush = async function* () {
      const uses = await usesOf(
        db,
        batch.map((row) => row.id),
      );
      for (const row of batch) {
        const link = new URL(`/e/${encodeURIComponent(found.slug)}`, publicUrl);
        link.searchParams.set('code', row.code);
        yield [
          row.code,
          link.toString(),
          row.ticketTypeIds.map((id) => typeNames.get(id) ?? id).join(', '),
          row.discountPercent ?? '',
          row.discountAmount ?? '',
          row.discountAmount === null ? '' : money(row.discountAmount),
          row.minQuantity,
          row.maxUses ?? '',
          row.maxPerBuyer ?? '',
          uses.get(row.id) ?? 0,
          row.validFrom ? isoInstant(row.validFrom) : '',
          row.validFrom ? local(row.validFrom) : '',
          row.validUntil ? isoInstant(row.validUntil) : '',
          row.validUntil ? local(row.validUntil) : '',
          found.timeZone,
          isoInstant(row.createdAt),
        ];
      }
      batch = [];
    };
    // Uses are counted a page at a time: one query for a thousand codes.
    for await (const row of pages(read, sql`${eventCode.createdAt}`, sql`${eventCode.id}`)) {
      batch.push(row);
      if (batch.length === pageSize) yield* flush();
    }
    yield* flush();
  },
};
