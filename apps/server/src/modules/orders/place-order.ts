import { randomUUID } from 'node:crypto';
import { personLabel } from '@admit/shared/people';
import { discountOn } from '@admit/shared/codes';
import type { Locale } from '@admit/shared/locales';
import type { SoldOutDetails } from '@admit/shared/orders';
import type { Answers } from '@admit/shared/questions';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { roomInStatement, takeRoomInStatement, type SaleInfo } from '../events/events.api';
import { issueTicketsInStatement, newTicketCode } from '../tickets/tickets.api';
import { countQuotaUsesInStatement, quotaUsedUpSql, type Quota } from '../../platform/quotas/call-quota';
import { discountOf, lockCodeForStatement, type EventCode } from '../codes/codes.api';
import { emitWebhooksInStatement } from '../webhooks/webhooks.api';
import { questionsVersionSql } from '../questions/questions.api';
import { enqueueInStatement } from '../../platform/jobs/in-statement';
import { expireHoldJob } from './holds';
import { confirmationsInStatement } from './order-emails';
import { placedOrderResourceSql } from './order-resource';

/** One buyer's order of one ticket type, as it waits to be made with others. */
export interface OrderRequest {
  buyer: { id: string; name: string; email: string };
  locale: Locale;
  idempotencyKey: string | null;
  quantity: number;
  quotas: readonly Quota[];
  /** Each ticket's answers, checked against the event's questions of `questionsVersion` (none when nothing is asked). */
  answers: readonly Answers[];
  questionsVersion: string;
  /** With a code: the wrong codes its address has tried; while that quota is used up, its code is refused. */
  codeQuota: Quota | null;
}

/**
 * For each request, in order: the order made for it, or null, with its total and when its hold ends
 * (null for a free order, complete at once); whether it was within its quotas (it was counted in
 * them either way); and, when it was not made only because too few places were left with no ended
 * hold among them (so releasing those could give none back), what the buyer is told. Any other
 * request made nothing for takes the general path to hear why.
 */
export type OrderOutcome = {
  orderId: string | null;
  total: number;
  holdExpiresAt: string | null;
  withinQuota: boolean;
  soldOut: SoldOutDetails | null;
};

/**
 * Orders of one ticket type made in one statement. This is what most orders of a rush are;
 * createOrder sends them here, several at a time when they arrive together (order-batches.ts), and
 * takes the general path (a transaction, several statements, precise answers) for every request
 * this makes nothing for.
 *
 * The statement counts every request in its quotas (its account's and its address's), leaves out
 * those over a quota and those whose idempotency key made an order before, and gives places to the
 * rest in the order they came, each all its places or none, while both the event and the ticket
 * type have room (their rows locked, the event's first). The orders, their lines, their timelines'
 * first lines and their webhooks are written by the same statement, and:
 *
 * - a free order (`price` 0) is complete: its tickets and its confirmation job too, with no
 *   transaction around the statement (one round trip);
 * - an order to pay is a pending hold: its places are held, and the job that ends the hold at its
 *   time is written with it. A buyer may hold at most `heldPlacesLimit` places of the event at a time
 *   (their first hold, whatever its size): the statement counts their holds after the event's row is
 *   locked, in a transaction begun by that lock, so holds made meanwhile by other batches are seen.
 *
 * With a `code`, every order of the batch uses it for all its tickets, at the price less its
 * discount: the statement runs in the transaction that locks the event's row and then the code's,
 * and gives the code's tickets while it has uses left. A request from an address that has tried too
 * many wrong codes makes nothing (the general path refuses it, as it refuses every code then).
 *
 * Each order is whole, and a batch of orders costs one commit and one turn on the hot rows instead of
 * one each. It relies on the event and ticket type as this process read them at most a second ago
 * (`sale`), and on the code as read with the event's codes, and checks again what it relies on. See
 * decisions 0034, 0070 and 0071.
 */
export async function placeOrders(input: {
  db: Db;
  sale: SaleInfo;
  ticketTypeId: string;
  price: number;
  code: EventCode | null;
  heldPlacesLimit: number;
  requests: readonly OrderRequest[];
}): Promise<OrderOutcome[]> {
  const { db, sale, ticketTypeId, price, code, requests } = input;
  // The code's discount as read; the statement runs only if the code's row still says the same.
  const discount = code ? discountOn(price, discountOf(code)) : 0;
  const unitPrice = price - discount;
  const held = unitPrice > 0;
  const orderIds = requests.map(() => randomUUID());
  const tickets = held
    ? []
    : requests.flatMap((request, position) =>
        Array.from({ length: request.quantity }, (_, nth) => ({
          position,
          nth,
          id: randomUUID(),
          code: newTicketCode(sale.event.checkinKey),
          answers: JSON.stringify(request.answers[nth] ?? {}),
        })),
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
      unitPrice,
      discount,
      codeId: code?.id ?? null,
    }),
  };
  // A hold: the places the buyer holds already (signed in, or by their address), before this batch
  // and by the batch's earlier requests; a buyer holding none may hold any number.
  const withinHoldLimit = held ? sql`and (r.held_before = 0 or r.held_before + r.quantity <= ${input.heldPlacesLimit})` : sql``;
  const heldBefore = held
    ? // The buyer's orders first (by the indexes on their id and address: a buyer has few), the
      // event and the holds after: `offset 0` keeps the planner from scanning the event's holds
      // instead, which in a rush are thousands and grow with every batch.
      sql`coalesce((select sum(l.quantity)
                      from (select id, event_id, status, hold_expires_at from "order"
                             where buyer_id = r.buyer_id or lower(email) = lower(r.email) offset 0) o
                      join order_line l on l.order_id = o.id
                     where o.event_id = ${eventId} and o.status = 'pending' and o.hold_expires_at > now()), 0)
          + coalesce(sum(r.quantity) over (partition by r.buyer_id order by r.position rows between unbounded preceding and 1 preceding), 0)`
    : sql`0`;
  const codeQuota = requests.find((request) => request.codeQuota)?.codeQuota;
  const codeRefused = codeQuota
    ? sql`and not (r.code_quota_key is not null and ${quotaUsedUpSql(sql`r.code_quota_key`, codeQuota)})`
    : sql``;

  const statement = (
    usesLeft: number | null,
  ) => sql`with request (position, order_id, buyer_id, buyer_name, email, locale, idempotency_key, quantity, answers, questions_version, code_quota_key) as (
    select * from unnest(
      ${column(requests.map((_, position) => position))}::int[], ${column(orderIds)}::text[],
      ${column(requests.map((request) => request.buyer.id))}::text[], ${column(requests.map((request) => personLabel(request.buyer)))}::text[],
      ${column(requests.map((request) => request.buyer.email))}::text[], ${column(requests.map((request) => request.locale))}::text[],
      ${column(requests.map((request) => request.idempotencyKey))}::text[], ${column(requests.map((request) => request.quantity))}::int[],
      ${column(requests.map((request) => JSON.stringify(request.answers)))}::jsonb[],
      ${column(requests.map((request) => request.questionsVersion))}::text[],
      ${column(requests.map((request) => request.codeQuota?.key ?? null))}::text[])
  ),
  ${countQuotaUsesInStatement(uses)},
  eligible as (
    select r.* from (select r.*, ${heldBefore} as held_before from request r) r
     where (r.position in (select position from within_quota) or not exists (select 1 from quota_use))
       and (r.idempotency_key is null
            or not exists (select 1 from "order" o where o.buyer_id = r.buyer_id and o.idempotency_key = r.idempotency_key))
       ${withinHoldLimit}
       -- Its answers were checked against the event's questions as they still are.
       and r.questions_version = ${questionsVersionSql(eventId)}
       ${codeRefused}
  ),
  ${roomInStatement({ eventId, ticketTypeId, price, hiddenToo: code !== null })},
  placed as (
    select eligible.*, gen_random_uuid()::text as line_id, eligible.quantity * ${unitPrice}::int as total,
           ${held ? sql`now() + room.hold_minutes * interval '1 minute'` : sql`null::timestamptz`} as hold_expires_at
      from (select *, sum(quantity) over (order by position) as running_total from eligible) eligible, room
     where eligible.running_total <= room.places and eligible.quantity <= room.max_per_order
       ${usesLeft === null ? sql`` : sql`and eligible.running_total <= ${usesLeft}::int`}
  ),
  ${takeRoomInStatement({ eventId, ticketTypeId, from: sql`placed`, as: held ? 'held' : 'sold' })},
  placed_order as (
    insert into "order" (id, event_id, buyer_id, buyer_name, email, status, total, currency, hold_expires_at, locale, idempotency_key)
    select order_id, ${eventId}, buyer_id, buyer_name, email, ${sql.raw(held ? `'pending'` : `'paid'`)}, total, ${sale.event.currency},
           hold_expires_at, locale, idempotency_key
      from placed
  ),
  placed_line as (
    insert into order_line (id, order_id, ticket_type_id, quantity, unit_price, discount, code_id, answers)
    select line_id, order_id, ${ticketTypeId}, quantity, ${unitPrice}::int, ${discount}::int, ${code?.id ?? null}::text, answers from placed
  ),
  placed_activity as (
    insert into order_activity (id, order_id, kind, detail)
    select gen_random_uuid()::text, order_id, 'created',
           jsonb_build_object('total', total, 'tickets', quantity) ${code ? sql`|| jsonb_build_object('code', ${code.code}::text)` : sql``}
      from placed
  ),
  ${
    held
      ? // A hold ends at its time, even if nobody orders again.
        sql`expiring as (
    ${enqueueInStatement(expireHoldJob, sql`jsonb_build_object('orderId', placed.order_id)`, sql`placed`, sql`placed.hold_expires_at`)}
  ),`
      : sql`placed_ticket as (
    ${issueTicketsInStatement({ eventId, ticketTypeId, orders: sql`placed`, tickets })}
  ),
  enqueued as (
    ${confirmationsInStatement(sql`placed`)}
  ),`
  }
  ${emitWebhooksInStatement({ types: held ? ['order.created'] : ['order.created', 'order.paid'], ...placedWebhook })}
  select r.position, p.position is not null as placed, p.total,
         to_char(p.hold_expires_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as hold_expires_at,
         (r.position in (select position from within_quota) or not exists (select 1 from quota_use)) as within_quota,
         r.position in (select position from eligible) and r.quantity <= room.max_per_order
           -- A hold that ended (of places, or of tickets offered back) could give something back.
           and not exists (select 1 from "order" ended
                            where ended.status = 'pending' and ended.hold_expires_at <= now() and ended.event_id = ${eventId}) as definite,
         room.event_places - coalesce((select sum(quantity) from placed), 0) as event_left,
         room.type_places - coalesce((select sum(quantity) from placed), 0) as type_left
    from request r left join placed p on p.position = r.position left join room on true`;

  const rows =
    held || code
      ? await db.transaction(async (tx) => {
          // The event's row first, as every change of its places takes it; the statement begins after,
          // so it counts the buyers' holds and the code's uses that other batches made before it.
          await tx.execute(sql`select 1 from event where id = ${eventId} for update`);
          const locked = code ? await lockCodeForStatement(tx, code) : null;
          // The code changed or stopped working: nothing made, every order takes the general path.
          if (code && !locked) return [];
          return rowsOf(await tx.execute(statement(locked?.usesLeft ?? null)));
        })
      : rowsOf(await db.execute(statement(null)));
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return requests.map((request, position) => {
    const row = byPosition.get(position);
    const withinQuota = row?.within_quota === true;
    if (row?.placed)
      return {
        orderId: orderIds[position]!,
        total: Number(row.total),
        holdExpiresAt: row.hold_expires_at,
        withinQuota,
        soldOut: null,
      };
    return {
      orderId: null,
      total: 0,
      holdExpiresAt: null,
      withinQuota,
      soldOut: row && withinQuota && row.definite ? soldOutOf(row, request, ticketTypeId) : null,
    };
  });
}

const rowsOf = (result: unknown) => (result as { rows: PlacedRow[] }).rows;

interface PlacedRow {
  position: number;
  placed: boolean;
  total: number | string | null;
  hold_expires_at: string | null;
  within_quota: boolean;
  /** Not made for want of places alone, with no hold of the event ended: releasing one could change nothing. */
  definite: boolean | null;
  event_left: number | string | null;
  type_left: number | string | null;
}

/** What takePlaces would answer at this moment: the event's places first, then the ticket type's. */
function soldOutOf(row: PlacedRow, request: OrderRequest, ticketTypeId: string): SoldOutDetails | null {
  const eventLeft = Number(row.event_left);
  const typeLeft = Number(row.type_left);
  if (eventLeft < request.quantity) return { requested: request.quantity, remaining: Math.max(0, eventLeft) };
  if (typeLeft < request.quantity) return { ticketTypeId, requested: request.quantity, remaining: Math.max(0, typeLeft) };
  return null;
}
