import { and, eq, isNull, sql } from 'drizzle-orm';
import { linkToken, linkTokenOpens } from '../../platform/auth/link-tokens';
import type { Config } from '../../platform/config';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import type { Order } from './order-places';
import { order } from './schema';

// A guest's order is opened by a token in the links of its emails (decision 0060): an HMAC of the
// order's id under the server's secret (platform/auth/link-tokens.ts), so nothing is stored that
// opens it, and a token made for one order opens no other. It opens the order's page, tickets, PDF, holder names, answers and
// cancel, as its buyer's session would; nothing else.

/** The token that opens one order (43 URL-safe characters). */
export function orderAccessToken(config: Pick<Config, 'AUTH_SECRET'>, orderId: string): string {
  return linkToken(config, 'order access', orderId);
}

/** Whether the token is the one that opens this order (compared in constant time). */
export function tokenOpens(config: Pick<Config, 'AUTH_SECRET'>, orderId: string, token: string | undefined): boolean {
  return linkTokenOpens(config, 'order access', orderId, token);
}

/** The link a guest's emails carry to their order: its page, opened by the token. */
export function guestOrderUrl(config: Pick<Config, 'AUTH_SECRET'>, publicUrl: string, orderId: string): string {
  const url = new URL(`/orders/${encodeURIComponent(orderId)}`, publicUrl);
  url.searchParams.set('token', orderAccessToken(config, orderId));
  return url.toString();
}

/**
 * The order a caller may act on as its buyer: the one their token opens, or, without a token,
 * their own (signed in). Anything else is `not-found`, as an order that does not exist; no token
 * and no session is `unauthenticated`.
 */
export async function buyersOrder(
  ctx: { db: Db | Tx; user: { id: string } | null; config: Pick<Config, 'AUTH_SECRET'> },
  orderId: string,
  accessToken: string | undefined,
): Promise<Order> {
  if (accessToken === undefined && !ctx.user) throw new CallableError('unauthenticated', 'Sign in to do this');
  const opened = accessToken !== undefined && tokenOpens(ctx.config, orderId, accessToken);
  if (accessToken !== undefined && !opened) throw new CallableError('not-found', 'No such order');
  const [found] = await ctx.db
    .select()
    .from(order)
    .where(and(eq(order.id, orderId), opened ? undefined : eq(order.buyerId, ctx.user!.id)));
  if (!found) throw new CallableError('not-found', 'No such order');
  return found;
}

/**
 * A person signed in with a verified address: the orders guests made with it become theirs, so
 * that My tickets shows them (once: they are the same orders). An order whose idempotency key the
 * person used already stays a guest's (the key is unique per buyer). Returns the orders taken.
 */
export async function claimGuestOrders(db: Db, person: { id: string; email: string; emailVerified: boolean }) {
  if (!person.emailVerified) return [];
  const claimed = await db
    .update(order)
    .set({ buyerId: person.id })
    .where(
      and(
        isNull(order.buyerId),
        eq(order.email, person.email.toLowerCase()),
        // Qualified by hand: inside the subquery a bare column name would mean `mine`'s.
        sql`("order"."idempotency_key" is null or not exists (select 1 from "order" mine where mine.buyer_id = ${person.id} and mine.idempotency_key = "order"."idempotency_key"))`,
      ),
    )
    .returning({ id: order.id, eventId: order.eventId, buyerId: order.buyerId });
  return claimed;
}
