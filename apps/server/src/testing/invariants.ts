import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../platform/db/database';

// The data invariants (docs/contracts.md), as SQL over the real tables. Each check selects the rows
// that break it, so an empty result means it holds; the first few offenders are reported as text,
// which makes a failing `expect(await dataInvariantViolations(db)).toEqual([])` say what went wrong.
// A provider event applied at most once is the payment_event table's primary key.

const checks: { name: string; query: SQL }[] = [
  {
    name: 'ticket type sold + held exceeds its capacity (or a counter is negative)',
    query: sql`select id, capacity, sold, held from ticket_type where sold < 0 or held < 0 or sold + held > capacity`,
  },
  {
    name: 'event sold + held exceeds its capacity (or a counter is negative)',
    query: sql`select id, capacity, sold, held from event where sold < 0 or held < 0 or sold + held > capacity`,
  },
  {
    name: "the ticket types' sold + held exceeds the event capacity",
    query: sql`
      select e.id, e.capacity, sum(tt.sold + tt.held)::int as taken
      from event e join ticket_type tt on tt.event_id = e.id
      group by e.id, e.capacity
      having sum(tt.sold + tt.held) > e.capacity`,
  },
  {
    name: "the event's counters differ from the sum of its ticket types'",
    query: sql`
      select e.id, e.sold, e.held,
        coalesce((select sum(sold) from ticket_type where event_id = e.id), 0)::int as types_sold,
        coalesce((select sum(held) from ticket_type where event_id = e.id), 0)::int as types_held
      from event e
      where e.sold <> coalesce((select sum(sold) from ticket_type where event_id = e.id), 0)
         or e.held <> coalesce((select sum(held) from ticket_type where event_id = e.id), 0)`,
  },
  {
    name: 'ticket type waitlist_waiting differs from its waiting-list entries that wait',
    query: sql`
      select tt.id, tt.waitlist_waiting,
        (select count(*)::int from waitlist_entry w where w.ticket_type_id = tt.id and w.status = 'waiting') as waiting
      from ticket_type tt
      where tt.waitlist_waiting <> (select count(*) from waitlist_entry w where w.ticket_type_id = tt.id and w.status = 'waiting')`,
  },
  {
    name: 'a waiting-list offer without its own order (none, or one offered twice)',
    query: sql`
      select w.id, w.offer_order_id from waitlist_entry w
      where (w.status = 'offered' and w.offer_order_id is null)
         or (w.offer_order_id is not null and exists (
               select 1 from waitlist_entry other where other.offer_order_id = w.offer_order_id and other.id <> w.id))`,
  },
  {
    name: 'ticket type sold differs from its number of valid tickets',
    query: sql`
      select tt.id, tt.sold, (select count(*)::int from ticket t where t.ticket_type_id = tt.id and t.status = 'valid') as valid_tickets
      from ticket_type tt
      where tt.sold <> (select count(*) from ticket t where t.ticket_type_id = tt.id and t.status = 'valid')`,
  },
  {
    name: 'ticket type held differs from the places in its pending orders',
    query: sql`
      select tt.id, tt.held,
        coalesce((select sum(ol.quantity) from order_line ol join "order" o on o.id = ol.order_id
                  where ol.ticket_type_id = tt.id and o.status = 'pending' and not ol.resale), 0)::int as pending
      from ticket_type tt
      -- A line of tickets offered back takes no place: their sellers' tickets have them (decision 0066).
      where tt.held <> coalesce((select sum(ol.quantity) from order_line ol join "order" o on o.id = ol.order_id
                                 where ol.ticket_type_id = tt.id and o.status = 'pending' and not ol.resale), 0)`,
  },
  {
    name: 'paid order whose tickets differ from its order lines',
    query: sql`
      select o.id, l.ticket_type_id, l.quantity, l.tickets
      from "order" o
      join (
        select coalesce(ol.order_id, t.order_id) as order_id, coalesce(ol.ticket_type_id, t.ticket_type_id) as ticket_type_id,
          coalesce(ol.quantity, 0) as quantity, coalesce(t.tickets, 0) as tickets
        from (select order_id, ticket_type_id, sum(quantity)::int as quantity from order_line group by order_id, ticket_type_id) ol
        -- A ticket sent on counts once: the void one its transfer replaced is left out (decision 0065).
        full join (select order_id, ticket_type_id, count(*)::int as tickets from ticket where replaced_by is null
                   group by order_id, ticket_type_id) t
          on t.order_id = ol.order_id and t.ticket_type_id = ol.ticket_type_id
      ) l on l.order_id = o.id
      where o.status = 'paid' and l.quantity <> l.tickets`,
  },
  {
    name: 'ticket sent on whose replacement is missing, or a replacement still valid beside the ticket it replaced',
    query: sql`
      select old.id, old.status, old.replaced_by from ticket old
      left join ticket new on new.id = old.replaced_by and (new.transferred_from = old.id
        or exists (select 1 from ticket_resale r where r.ticket_id = old.id and r.new_ticket_id = new.id and r.status = 'sold'))
      where old.replaced_by is not null and (old.status <> 'void' or new.id is null)`,
  },
  {
    name: 'ticket type resale_listed differs from its listed offers',
    query: sql`
      select tt.id, tt.resale_listed from ticket_type tt
      where tt.resale_listed <> (select count(*) from ticket_resale r where r.ticket_type_id = tt.id and r.status = 'listed')`,
  },
  {
    name: 'an offer listed or held for a ticket not valid, held without its pending order, or sold without its new ticket in its buyer’s order',
    query: sql`
      select r.id, r.status, t.status as ticket_status, o.status as sale_order_status from ticket_resale r
      join ticket t on t.id = r.ticket_id
      left join "order" o on o.id = r.sale_order_id
      where (r.status in ('listed', 'held') and t.status <> 'valid')
         or (r.status = 'listed' and r.sale_order_id is not null)
         or (r.status = 'held' and (o.status is distinct from 'pending'))
         or (r.status = 'sold' and (t.replaced_by is distinct from r.new_ticket_id
             or not exists (select 1 from ticket n where n.id = r.new_ticket_id and n.order_id = r.sale_order_id)))`,
  },
  {
    name: 'ticket with more than one pending transfer, or an accepted transfer without its new ticket',
    query: sql`
      select tr.ticket_id, count(*) filter (where tr.status = 'pending') as pending
      from ticket_transfer tr
      left join ticket new on new.id = tr.new_ticket_id
      group by tr.ticket_id
      having count(*) filter (where tr.status = 'pending') > 1
          or count(*) filter (where tr.status = 'accepted' and new.id is null) > 0`,
  },
  {
    // A partly refunded order keeps the tickets that were not refunded.
    name: 'valid ticket without a paid order',
    query: sql`
      select t.id, t.order_id, o.status as order_status
      from ticket t left join "order" o on o.id = t.order_id
      where t.status = 'valid' and (o.id is null or o.status not in ('paid', 'partially_refunded'))`,
  },
  {
    name: "order's refunded amount differs from its refunds that gave money back, or exceeds its total",
    query: sql`
      select o.id, o.total, o.refunded_amount,
        coalesce((select sum(r.amount) from refund r where r.order_id = o.id and r.status not in ('failed', 'canceled')), 0)::int as refunds
      from "order" o
      where o.refunded_amount > o.total
         or o.refunded_amount <> coalesce((select sum(r.amount) from refund r
                                           where r.order_id = o.id and r.status not in ('failed', 'canceled')), 0)`,
  },
  {
    name: 'ticket whose event differs from its order or its ticket type',
    query: sql`
      select t.id, t.event_id, o.event_id as order_event_id, tt.event_id as ticket_type_event_id
      from ticket t join "order" o on o.id = t.order_id join ticket_type tt on tt.id = t.ticket_type_id
      where t.event_id <> o.event_id or t.event_id <> tt.event_id`,
  },
  {
    name: 'ticket with more than one standing admission',
    query: sql`
      select ticket_id, count(*)::int as admissions from check_in
      where result = 'accepted' and undone_at is null group by ticket_id having count(*) > 1`,
  },
  {
    name: 'ticket checked in without a standing admission, or admitted without being checked in',
    query: sql`
      select t.id, t.checked_in_at, c.id as check_in_id from ticket t
      left join check_in c on c.ticket_id = t.id and c.result = 'accepted' and c.undone_at is null
      where (t.checked_in_at is null) <> (c.id is null)`,
  },
  {
    name: "a message's counts differ from its recipients' (or it is finished with someone still waiting)",
    query: sql`
      select m.id, m.recipients, m.sent, m.unreachable, m.finished_at,
        (select count(*)::int from attendee_message_recipient r where r.message_id = m.id) as rows,
        (select count(*)::int from attendee_message_recipient r where r.message_id = m.id and r.status is null) as waiting
      from attendee_message m
      where m.recipients <> (select count(*) from attendee_message_recipient r where r.message_id = m.id)
         or (m.finished_at is not null and (
              exists (select 1 from attendee_message_recipient r where r.message_id = m.id and r.status is null)
              or m.sent <> (select count(*) from attendee_message_recipient r where r.message_id = m.id and r.status = 'sent')))`,
  },
  {
    name: 'a message recipient marked sent whose email was never sent (an erased account aside)',
    query: sql`
      select r.message_id, r.email from attendee_message_recipient r
      where r.status = 'sent' and r.email not like 'deleted-%'
        and not exists (select 1 from sent_email s where s.key = 'attendee-message:' || r.message_id || ':' || r.email)`,
  },
  {
    name: 'a code used for more tickets than its limit (held and valid ones)',
    query: sql`
      select c.id, c.max_uses, u.used from event_code c
      join lateral (
        select coalesce((select sum(l.quantity) from order_line l join "order" o on o.id = l.order_id
                          where l.code_id = c.id and o.status = 'pending'), 0)
             + (select count(*) from order_line l join ticket t on t.order_id = l.order_id and t.ticket_type_id = l.ticket_type_id
                 where l.code_id = c.id and t.status = 'valid') as used
      ) u on true
      where c.max_uses is not null and u.used > c.max_uses`,
  },
  {
    name: 'an order line taken with a code of another event, or priced below nothing',
    query: sql`
      select l.id, l.code_id, l.unit_price, l.discount from order_line l
      join "order" o on o.id = l.order_id left join event_code c on c.id = l.code_id
      where (l.code_id is not null and c.event_id <> o.event_id)
         or l.discount < 0 or l.unit_price < 0 or (l.code_id is null and l.discount <> 0)`,
  },
  {
    name: "an order line's answers not one set per ticket (nor none), or a ticket's answers not a set by question",
    query: sql`
      select 'line' as kind, l.id from order_line l
      where jsonb_typeof(l.answers) <> 'array' or jsonb_array_length(l.answers) not in (0, l.quantity)
      union all
      select 'ticket', t.id from ticket t where jsonb_typeof(t.answers) <> 'object'`,
  },
];

/** Every violation of the data invariants in the database, one line each; empty when all hold. */
export async function dataInvariantViolations(db: Db): Promise<string[]> {
  const violations: string[] = [];
  for (const check of checks) {
    const { rows } = (await db.execute(check.query)) as unknown as { rows: Record<string, unknown>[] };
    for (const row of rows.slice(0, 5)) violations.push(`${check.name}: ${JSON.stringify(row)}`);
    if (rows.length > 5) violations.push(`${check.name}: … and ${rows.length - 5} more`);
  }
  return violations;
}
