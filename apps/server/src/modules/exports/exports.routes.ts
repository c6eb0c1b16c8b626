import { Readable, pipeline } from 'node:stream';
import { ExportKind, ExportQuery, exportRowCountHeader, neutralizeFormula, usesDecimalComma } from '@admit/shared/csv';
import { formatOrderReference } from '@admit/shared/orders';
import type { OrgRole } from '@admit/shared/orgs';
import { stringify } from 'csv-stringify';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../platform/auth/auth';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { contentDisposition } from '../../platform/http/content-disposition';
import { sendError } from '../../platform/http/send-error';
import { localeOf } from '../../platform/mail/compose';
import { eventCode } from '../codes/schema';
import { requireEventRole, type EventRecord } from '../events/events.api';
import { ticketType } from '../events/schema';
import { order, orderLine } from '../orders/schema';
import { ticket } from '../tickets/schema';
import type { QuestionRow } from '@admit/shared/questions';
import { questionsOf } from '../questions/questions.api';
import { answerColumns } from './answer-columns';
import { checkInsExport } from './check-ins-export';
import { codesExport } from './codes-export';
import { waitlistExport } from './waitlist-export';
import { exportedText, isoInstant, localTimeFormatter, moneyFormatter } from './csv-format';
import { pages, pageSize, type ExportContext, type ExportDefinition } from './export-definition';

// `GET /files/events/:eventId/exports/<attendees|orders|check-ins>.csv` (docs/decisions/0023): read from the database in pages of (time, id) and written through
// csv-stringify into the response as they come, so no export is ever whole in memory.

export interface ExportRouteDeps {
  db: Db;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** Where people reach Admit: the links an export writes (a code's). */
  publicUrl: string;
}

/**
 * The event's questions as one export reads them, for its header and its rows alike (one read per
 * download): a question added or removed while the file is written must not shift the columns.
 */
const questionsRead = new WeakMap<ExportContext, Promise<QuestionRow[]>>();
function exportedQuestions(context: ExportContext): Promise<QuestionRow[]> {
  let read = questionsRead.get(context);
  if (!read) questionsRead.set(context, (read = questionsOf(context.db, context.event.id)));
  return read;
}

const attendees: ExportDefinition = {
  minimumRole: 'staff',
  header: async (context) => [
    ...(context.role === 'staff'
      ? ['ticket_id', 'ticket_type', 'holder_name', 'ticket_status', 'checked_in_at', 'checked_in_at_local', 'time_zone']
      : [
          'ticket_id',
          'ticket_type',
          'holder_name',
          'holder_email',
          'ticket_status',
          'order_reference',
          'order_id',
          'order_status',
          'buyer_name',
          'buyer_email',
          'price_minor',
          'price',
          'currency',
          'discount_minor',
          'code',
          'issued_at',
          'issued_at_local',
          'checked_in_at',
          'checked_in_at_local',
          'time_zone',
        ]),
    // Then one column per question, its answers.
    ...answerColumns(await exportedQuestions(context), context.role).header,
  ],
  async count({ db, event: found }) {
    const [row] = await db.select({ n: count() }).from(ticket).where(eq(ticket.eventId, found.id));
    return row?.n ?? 0;
  },
  async *rows(context) {
    const { db, event: found, role, locale } = context;
    const answers = answerColumns(await exportedQuestions(context), role);
    const local = localTimeFormatter(found.timeZone);
    const money = moneyFormatter(locale, found.currency);
    const typeNames = new Map(
      (
        await db
          .select({ id: ticketType.id, name: exportedText(ticketType.name) })
          .from(ticketType)
          .where(eq(ticketType.eventId, found.id))
      ).map((type) => [type.id, type.name]),
    );
    // Each page from `ticket` alone, so the keyset walks its index; its orders and prices are then
    // read by id (a join here made the planner sort all of the event's tickets for every page).
    const read = (after: SQL | undefined) =>
      db
        .select({
          id: ticket.id,
          cursorAt: sql<string>`${ticket.createdAt}::text`,
          createdAt: ticket.createdAt,
          ticketTypeId: ticket.ticketTypeId,
          holderName: exportedText(ticket.holderName),
          holderEmail: exportedText(ticket.holderEmail),
          status: ticket.status,
          checkedInAt: ticket.checkedInAt,
          orderId: ticket.orderId,
          answers: ticket.answers,
        })
        .from(ticket)
        .where(and(eq(ticket.eventId, found.id), after))
        .orderBy(asc(ticket.createdAt), asc(ticket.id))
        .limit(pageSize);
    let after: SQL | undefined;
    for (;;) {
      const page = await read(after);
      const orderIds = [...new Set(page.map((row) => row.orderId))];
      const [orders, lines] =
        role === 'staff' || orderIds.length === 0
          ? [[], []]
          : await Promise.all([
              db
                .select({
                  id: order.id,
                  status: order.status,
                  buyerName: exportedText(order.buyerName),
                  email: exportedText(order.email),
                  currency: order.currency,
                })
                .from(order)
                .where(inArray(order.id, orderIds)),
              db
                .select({
                  orderId: orderLine.orderId,
                  ticketTypeId: orderLine.ticketTypeId,
                  unitPrice: orderLine.unitPrice,
                  discount: orderLine.discount,
                  code: eventCode.code,
                })
                .from(orderLine)
                .leftJoin(eventCode, eq(eventCode.id, orderLine.codeId))
                .where(inArray(orderLine.orderId, orderIds)),
            ]);
      const orderById = new Map(orders.map((one) => [one.id, one]));
      const lineOf = new Map(lines.map((line) => [`${line.orderId}|${line.ticketTypeId}`, line]));
      for (const row of page) {
        const typeName = typeNames.get(row.ticketTypeId) ?? '';
        if (role === 'staff') {
          yield [
            row.id,
            typeName,
            row.holderName,
            row.status,
            isoInstant(row.checkedInAt),
            local(row.checkedInAt),
            found.timeZone,
            ...answers.cells(row.answers),
          ];
          continue;
        }
        const owner = orderById.get(row.orderId);
        const line = lineOf.get(`${row.orderId}|${row.ticketTypeId}`);
        // What the ticket cost: its code's discount taken off (and shown beside it).
        const price = line?.unitPrice ?? 0;
        yield [
          row.id,
          typeName,
          row.holderName,
          row.holderEmail,
          row.status,
          formatOrderReference(row.orderId),
          row.orderId,
          owner?.status ?? '',
          owner?.buyerName ?? '',
          owner?.email ?? '',
          price,
          money(price),
          owner?.currency ?? found.currency,
          line?.discount ?? 0,
          line?.code ?? '',
          isoInstant(row.createdAt),
          local(row.createdAt),
          isoInstant(row.checkedInAt),
          local(row.checkedInAt),
          found.timeZone,
          ...answers.cells(row.answers),
        ];
      }
      if (page.length < pageSize) return;
      const last = page[page.length - 1]!;
      after = sql`(${ticket.createdAt}, ${ticket.id}) > (${last.cursorAt}::timestamptz, ${last.id})`;
    }
  },
};

const orders: ExportDefinition = {
  minimumRole: 'admin',
  header: () => [
    'order_id',
    'order_reference',
    'status',
    'buyer_name',
    'buyer_email',
    'tickets',
    'total_minor',
    'total',
    'refunded_minor',
    'refunded',
    'currency',
    'discount_minor',
    'codes',
    'payment_provider',
    'locale',
    'created_at',
    'created_at_local',
    'time_zone',
  ],
  async count({ db, event: found }) {
    const [row] = await db.select({ n: count() }).from(order).where(eq(order.eventId, found.id));
    return row?.n ?? 0;
  },
  async *rows({ db, event: found, locale }) {
    const local = localTimeFormatter(found.timeZone);
    const money = moneyFormatter(locale, found.currency);
    const read = (after: SQL | undefined) =>
      db
        .select({
          id: order.id,
          cursorAt: sql<string>`${order.createdAt}::text`,
          createdAt: order.createdAt,
          status: order.status,
          buyerName: exportedText(order.buyerName),
          email: exportedText(order.email),
          total: order.total,
          refunded: order.refundedAmount,
          currency: order.currency,
          provider: order.paymentProvider,
          locale: order.locale,
          // Spelled out: in a one-table select Drizzle leaves columns unqualified, which the subquery would misread.
          tickets: sql<number>`(select count(*)::int from ticket t where t.order_id = "order"."id" and t.status = 'valid')`,
          discount: sql<number>`(select coalesce(sum(l.discount * l.quantity), 0)::int from order_line l where l.order_id = "order"."id")`,
          codes: sql<
            string | null
          >`(select string_agg(distinct c.code, ' ') from order_line l join event_code c on c.id = l.code_id where l.order_id = "order"."id")`,
        })
        .from(order)
        .where(and(eq(order.eventId, found.id), after))
        .orderBy(asc(order.createdAt), asc(order.id))
        .limit(pageSize);
    for await (const row of pages(read, sql`${order.createdAt}`, sql`${order.id}`)) {
      yield [
        row.id,
        formatOrderReference(row.id),
        row.status,
        row.buyerName,
        row.email,
        Number(row.tickets),
        row.total,
        money(row.total),
        row.refunded,
        money(row.refunded),
        row.currency,
        Number(row.discount),
        row.codes ?? '',
        row.provider ?? '',
        row.locale ?? '',
        isoInstant(row.createdAt),
        local(row.createdAt),
        found.timeZone,
      ];
    }
  },
};

const definitions: Record<ExportKind, ExportDefinition> = {
  attendees,
  orders,
  'check-ins': checkInsExport,
  codes: codesExport,
  waitlist: waitlistExport,
};

/** The day of the export on the event's clock, for the file name: `2030-01-10`. */
const exportDate = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

/** An id as events have them: 1 to 64 characters, none of them a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const eventIdPattern = /^[^\u0000-\u001f\u007f]{1,64}$/;

export function registerExportRoutes(app: FastifyInstance, deps: ExportRouteDeps) {
  app.get<{ Params: { eventId: string; file: string }; Querystring: Record<string, string> }>(
    '/files/events/:eventId/exports/:file',
    async (request, reply) => {
      const kind = ExportKind.safeParse(request.params.file.replace(/\.csv$/, ''));
      const query = ExportQuery.safeParse(request.query);
      if (!request.params.file.endsWith('.csv') || !kind.success) return sendError(reply, 'not-found', 'No such export');
      // No event has such an id, and a NUL would reach the database as a query it cannot run.
      if (!eventIdPattern.test(request.params.eventId)) return sendError(reply, 'not-found', 'No such event');
      if (!query.success) return sendError(reply, 'invalid-argument', 'The export options are not valid');
      const user = await deps.getUser(request);
      if (!user) return sendError(reply, 'unauthenticated', 'Sign in to export');

      const definition = definitions[kind.data];
      let found: EventRecord;
      let role: OrgRole;
      try {
        ({ event: found, role } = await requireEventRole(deps.db, user, request.params.eventId, definition.minimumRole));
      } catch (error) {
        if (!(error instanceof CallableError)) throw error;
        return sendError(reply, error.code, error.message);
      }

      const locale = query.data.locale ?? localeOf(request.headers.cookie, request.headers['accept-language']);
      const excel = query.data.excel === '1';
      const context: ExportContext = { db: deps.db, event: found, role, locale, publicUrl: deps.publicUrl };
      const total = await definition.count(context);

      const csv = stringify({
        bom: excel,
        delimiter: excel && usesDecimalComma(locale) ? ';' : ',',
        record_delimiter: 'windows',
        // Quoted whenever it holds a CR or an LF, not only the CRLF between records: Excel,
        // LibreOffice and Python's csv end a record at a bare one too (the library's default
        // quotes only the record delimiter once one is set).
        quoted_match: /[\r\n]/,
        cast: { string: neutralizeFormula },
      });
      async function* records() {
        yield await definition.header(context);
        yield* definition.rows(context);
      }
      // pipeline, not pipe: a failed page ends the response (the download shows it broke), and a
      // client that goes away stops the reading.
      pipeline(Readable.from(records()), csv, (error) => {
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') request.log.error({ err: error }, 'export failed');
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          contentDisposition('attachment', `${found.slug}-${kind.data}-${exportDate(found.timeZone)}.csv`),
        )
        .header('cache-control', 'private, no-store')
        .header(exportRowCountHeader, String(total))
        .send(csv);
    },
  );
}
