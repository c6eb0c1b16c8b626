// The confirmation email of every paid order, as the dev outbox keeps it: a job (orders.sendConfirmation)
// renders it after the order's commit and stores it in `outbox_message`, keyed once per order in
// `sent_email` (`order-confirmation:<orderId>`). A run waits for them after its orders and checks
// that each order got exactly one.
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { round } from './stats';

/** How long the emails may take after the last order's answer (the target). */
export const emailTargetSeconds = 60;

export interface ConfirmationFigures {
  /** Paid orders of the events. */
  paidOrders: number;
  /** Confirmation emails in the outbox for them (subject "Your tickets for <event>", the order's reference in the text). */
  emails: number;
  /** Orders with more than one email: the extra emails (must be 0). */
  duplicates: number;
  /** Paid orders without an email when the wait ended: `pending` plus `lost`. */
  missing: number;
  /** Of those, the ones whose job is still to run (waiting, to be retried, or under way): late, not lost. */
  pending: number;
  /** Paid orders without an email and without a job that will still send it (must be 0). */
  lost: number;
  /** Emails with the events' subject that match no paid order (must be 0). */
  strays: number;
  /** From the last order's answer to the last email stored (ms; negative when the last email came before the last answer). */
  lastEmailAfterLastAnswerMs: number | null;
  /** From the last order's answer until the wait ended (ms). */
  waitedMs: number;
  /** Emails stored per second while the wait lasted. */
  emailsPerSecondWhileWaiting: number;
  /** When emails were still missing at the end of the wait: how much longer they need at that rate (s). */
  projectedSecondsToLastEmail: number | null;
  timedOut: boolean;
  withinTarget: boolean;
}

/** Paid orders of the events, and how many of them have had their confirmation sent (its key in `sent_email`). */
export async function keysSent(pool: pg.Pool, eventIds: string[]) {
  const { rows } = await pool.query<{ paid: number; sent: number }>(
    `select count(*)::int as paid, count(s.key)::int as sent
       from "order" o left join sent_email s on s.key = 'order-confirmation:' || o.id
      where o.event_id = any($1) and o.status = 'paid'`,
    [eventIds],
  );
  return rows[0]!;
}

/**
 * Waits until every paid order of the events has its confirmation key, or `timeoutSeconds` have
 * passed since the last answer; then counts the emails themselves: each paid order must have
 * exactly one email to its buyer whose text carries its reference (formatOrderReference: the
 * order id without dashes, first 8 characters, upper case). An order still without one is pending
 * while a confirmation job for it waits or runs, and lost otherwise.
 */
export async function awaitConfirmations(
  pool: pg.Pool,
  options: { eventIds: string[]; lastAnswerAt: number; timeoutSeconds: number },
): Promise<ConfirmationFigures> {
  const deadline = options.lastAnswerAt + options.timeoutSeconds * 1000;
  const startedAt = Date.now();
  const sentAtStart = (await keysSent(pool, options.eventIds)).sent;
  let timedOut = false;
  let sentAtEnd = sentAtStart;
  for (;;) {
    const { paid, sent } = await keysSent(pool, options.eventIds);
    sentAtEnd = sent;
    if (sent >= paid) break;
    if (Date.now() > deadline) {
      timedOut = true;
      break;
    }
    await sleep(250);
  }
  const waitedMs = Date.now() - options.lastAnswerAt;
  const { rows } = await pool.query<{
    paid_orders: number;
    emails: number;
    duplicates: number;
    missing: number;
    pending: number;
    strays: number;
    last_email_ms: number | null;
  }>(
    `with paid as (
       select o.id, o.email, upper(substr(replace(o.id, '-', ''), 1, 8)) as reference, 'Your tickets for ' || e.title as subject
         from "order" o join event e on e.id = o.event_id
        where o.event_id = any($1) and o.status = 'paid'
     ), mails as (
       select m.id, m.to, m.created_at, substring(m.text from 'Order ([0-9A-F]{8})') as reference
         from outbox_message m
        where m.channel = 'email' and m.subject in (select distinct subject from paid)
     ), per_order as (
       select p.id, count(m.id)::int as emails, max(m.created_at) as last_at
         from paid p left join mails m on m.to = p.email and m.reference = p.reference
        group by p.id
     ), jobs_to_run as (
       select distinct data->>'orderId' as order_id from pgboss.job
        where name = 'orders.sendConfirmation' and state in ('created', 'retry', 'active')
     )
     select (select count(*)::int from per_order) as paid_orders,
            (select count(*)::int from mails) as emails,
            (select coalesce(sum(emails - 1), 0)::int from per_order where emails > 1) as duplicates,
            (select count(*)::int from per_order where emails = 0) as missing,
            (select count(*)::int from per_order p join jobs_to_run j on j.order_id = p.id where p.emails = 0) as pending,
            (select count(*)::int from mails m
              where not exists (select 1 from paid p where p.email = m.to and p.reference = m.reference)) as strays,
            (select extract(epoch from max(last_at)) * 1000 from per_order)::float8 as last_email_ms`,
    [options.eventIds],
  );
  const found = rows[0]!;
  const lastEmailAfterLastAnswerMs = found.last_email_ms === null ? null : Math.round(found.last_email_ms - options.lastAnswerAt);
  const rate = (sentAtEnd - sentAtStart) / Math.max(0.001, (Date.now() - startedAt) / 1000);
  return {
    paidOrders: found.paid_orders,
    emails: found.emails,
    duplicates: found.duplicates,
    missing: found.missing,
    pending: found.pending,
    lost: found.missing - found.pending,
    strays: found.strays,
    lastEmailAfterLastAnswerMs,
    waitedMs,
    emailsPerSecondWhileWaiting: round(rate, 1),
    projectedSecondsToLastEmail: found.missing > 0 && rate > 0 ? Math.round(found.missing / rate) : null,
    timedOut,
    withinTarget: !timedOut && found.missing === 0 && (lastEmailAfterLastAnswerMs ?? 0) <= emailTargetSeconds * 1000,
  };
}

export function describeConfirmations(label: string, figures: ConfirmationFigures): string {
  const last = figures.lastEmailAfterLastAnswerMs === null ? 'none' : `${round(figures.lastEmailAfterLastAnswerMs / 1000, 1)} s`;
  const missing =
    figures.missing === 0
      ? 'missing 0'
      : `MISSING ${figures.missing} when the wait ended after ${round(figures.waitedMs / 1000)} s (${figures.pending} pending, ` +
        `${figures.lost} lost; at ${figures.emailsPerSecondWhileWaiting} emails/s the last would come ` +
        `${figures.projectedSecondsToLastEmail ?? '?'} s later)`;
  return (
    `${label}: ${figures.emails} confirmation emails for ${figures.paidOrders} paid orders, last one ${last} after the last ` +
    `order's answer (target ≤ ${emailTargetSeconds} s${figures.withinTarget ? ': met' : ': MISSED'}); duplicates ${figures.duplicates}, ` +
    `${missing}, strays ${figures.strays}`
  );
}
