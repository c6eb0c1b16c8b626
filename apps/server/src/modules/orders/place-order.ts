import { randomUUID } from 'node:crypto';
import { personLabel } from '@admit/shared/people';
import type { Locale } from '@admit/shared/locales';
import type { SoldOutDetails } from '@admit/shared/orders';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { roomInStatement, takeRoomInStatement, type SaleInfo } from '../events/events.api';
import { issueTicketsInStatement, newTicketCode } from '../tickets/tickets.api';
import { countQuotaUsesInStatement, type Quota } from '../../platform/quotas/call-quota';
import { emitWebhooksInStatement } from '../webhooks/webhooks.api';
import { confirmationsInStatement } from './order-emails';
import { placedOrderResourceSql } from './order-resource';

/** One buyer's free order of one ticket type, as it waits to be made with others. */
export interface FreeOrderRequest {
  buyer: { id: string; name: string; email: string };
  locale: Locale;
  idempotencyKey: string | null;
  quantity: number;
  quotas: readonly Quota[];
}

/**
 * For each request, in order: the order made for it, or null; whether it was within its quotas (it
 * was counted in them either way); and, when it was not made only because too few places were left
 * with none held (so no ended hold could give any back), what the buyer is told. Any other request
 * made nothing for takes the general path to hear why.
 */
export type FreeOrderOutcome = { orderId: string | null; withinQuota: boolean; soldOut: SoldOutDetails | null };

/**
 * Free orders of one ticket type made in one statement, one round trip, with no transaction
 * around it. This is what most orders of a rush are; createOrder sends them here, several at a
 * time when they arrive together (order-batches.ts), and takes the general path (a transaction,
 * several statements, precise answers) for every request this makes nothing for.
 *
 * The statement counts every request in its quotas (its account's and its address's), leaves out
 * those over a quota and those whose idempotency key made an order before, and gives places to the
 * rest in the order they came, each all its places or none, while both the event and the ticket
 * type have room (their rows locked, the event's first). The orders, their lines, their timelines'
 * first lines, their tickets and their confirmation jobs are written by the same statement: each
 * order is whole, and a batch of orders costs one commit and one turn on the hot rows instead of
 * one each. It relies on the event and ticket type as this process read them at most a second ago
 * (`sale`) and checks again what it relies on. See decision 0034.
 */
export async function placeFreeOrders(input: {
  db: Db;
  sale: SaleInfo;
  ticketTypeId: string;
  requests: readonly FreeOrderRequest[];
}): Promise<FreeOrderOutcome[]> {
  const { db, sale, ticketTypeId, requests } = input;
  const orderIds = requests.map(() => randomUUID());
  const tickets = requests.flatMap((request, position) =>
    Array.from({ length: request.quantity }, () => ({ position, id: randomUUID(), code: newTicketCode(sale.event.checkinKey) })),
  );
  const uses = requests.flatMap((request, position) => request.quotas.map((quota) => ({ position, ...quota })));
  const column = <T>(values: readonly T[]) => sql.param([...values]);
  const eventId = sale.event.id;
  // Each order made is reported to the organization's webhooks by the same statement (decision 0063).
  const placedWebhook = {
    from: sql`placed`,
    organizationId: sql`${sale.event.organizationId}::text`,
    objectId: sql`placed.order_id`,
    payload: placedOrderResourceSql({
      organizationId: sale.event.organizationId,
      eventId,
      currency: sale.event.currency,
      timeZone: sale.event.timeZone,
      ticketTypeId,
      ticketTypeName: sale.ticketTypes.get(ticketTypeId)?.name ?? '',
    }),
  };

  const statement = sql`with request (position, order_id, buyer_id, buyer_name, email, locale, idempotency_key, quantity) as (
    select * from unnest(
      ${column(requests.map((_, position) => position))}::int[], ${column(orderIds)}::text[],
      ${column(requests.map((request) => request.buyer.id))}::text[], ${column(requests.map((request) => personLabel(request.buyer)))}::text[],
      ${column(requests.map((request) => request.buyer.email))}::text[], ${column(requests.map((request) => request.locale))}::text[],
      ${column(requests.map((request) => request.idempotencyKey))}::text[], ${column(requests.map((request) => request.quantity))}::int[])
  ),
  ${countQuotaUsesInStatement(uses)},
  eligible as (
    select r.* from request r
     where (r.position in (select position from within_quota) or not exists (select 1 from quota_use))
       and (r.idempotency_key is null
            or not exists (select 1 from "order" o where o.buyer_id = r.buyer_id and o.idempotency_key = r.idempotency_key))
  ),
  ${roomInStatement({ eventId, ticketTypeId, price: 0 })},
  placed as (
    select eligible.*, gen_random_uuid()::text as line_id
      from (select *, sum(quantity) over (order by position) as running_total from eligible) eligible, room
     where eligible.running_total <= room.places and eligible.quantity <= room.max_per_order
  ),
  ${takeRoomInStatement({ eventId, ticketTypeId, from: sql`placed` })},
  placed_order as (
    insert into "order" (id, event_id, buyer_id, buyer_name, email, status, total, currency, locale, idempotency_key)
    select order_id, ${eventId}, buyer_id, buyer_name, email, 'paid', 0, ${sale.event.currency}, locale, idempotency_key from placed
  ),
  placed_line as (
    insert into order_line (id, order_id, ticket_type_id, quantity, unit_price)
    select line_id, order_id, ${ticketTypeId}, quantity, 0 from placed
  ),
  placed_activity as (
    insert into order_activity (id, order_id, kind, detail)
    select gen_random_uuid()::text, order_id, 'created', jsonb_build_object('total', 0, 'tickets', quantity) from placed
  ),
  placed_ticket as (
    ${issueTicketsInStatement({ eventId, ticketTypeId, orders: sql`placed`, tickets })}
  ),
  enqueued as (
    ${confirmationsInStatement(sql`placed`)}
  ),
  ${emitWebhooksInStatement({ types: ['order.created', 'order.paid'], ...placedWebhook })}
  select r.position, p.position is not null as placed,
         (r.position in (select position from within_quota) or not exists (select 1 from quota_use)) as within_quota,
         r.position in (select position from eligible) and r.quantity <= room.max_per_order and room.held = 0 as definite,
         room.event_places - coalesce((select sum(quantity) from placed), 0) as event_left,
         room.type_places - coalesce((select sum(quantity) from placed), 0) as type_left
    from request r left join placed p on p.position = r.position left join room on true`;

  const result = await db.execute(statement);
  const rows = (result as unknown as { rows: PlacedRow[] }).rows;
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return requests.map((request, position) => {
    const row = byPosition.get(position);
    const withinQuota = row?.within_quota === true;
    if (row?.placed) return { orderId: orderIds[position]!, withinQuota, soldOut: null };
    return {
      orderId: null,
      withinQuota,
      soldOut: row && withinQuota && row.definite ? soldOutOf(row, request, ticketTypeId) : null,
    };
  });
}

interface PlacedRow {
  position: number;
  placed: boolean;
  within_quota: boolean;
  /** Not made for want of places alone, with nothing held: no ended hold could change the answer. */
  definite: boolean | null;
  event_left: number | string | null;
  type_left: number | string | null;
}

/** What takePlaces would answer at this moment: the event's places first, then the ticket type's. */
function soldOutOf(row: PlacedRow, request: FreeOrderRequest, ticketTypeId: string): SoldOutDetails | null {
  const eventLeft = Number(row.event_left);
  const typeLeft = Number(row.type_left);
  if (eventLeft < request.quantity) return { requested: request.quantity, remaining: Math.max(0, eventLeft) };
  if (typeLeft < request.quantity) return { ticketTypeId, requested: request.quantity, remaining: Math.max(0, typeLeft) };
  return null;
}
