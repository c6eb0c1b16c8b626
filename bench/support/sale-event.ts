import { randomUUID } from 'node:crypto';
import { call } from './callable';
import type { LoadRequest } from './http-load';
import { createPeople, type Person } from './people';
import { asApiClient, type SignIn } from './sign-in';

export interface SaleEvent {
  eventId: string;
  ticketTypeId: string;
  capacity: number;
  price: number;
}

/** The ticket type's limit per order, so also the most tickets one order can issue. */
export const maxPerOrder = 10;

/** A published event with one ticket type of `capacity` places (the event holds as many), made through the callables. */
export async function createSaleEvent(
  baseUrl: string,
  organizer: Person,
  organizationId: string,
  options: { title: string; capacity: number; price: number; publish?: boolean },
): Promise<SaleEvent> {
  const { eventId } = await call<{ eventId: string }>(baseUrl, organizer, 'events.create', {
    organizationId,
    title: options.title,
    venue: 'Bench Hall',
    timeZone: 'Europe/Berlin',
    startsAtLocal: '2030-01-10T19:00',
    endsAtLocal: '2030-01-10T23:00',
    capacity: options.capacity,
  });
  const { ticketTypeId } = await call<{ ticketTypeId: string }>(baseUrl, organizer, 'events.addTicketType', {
    eventId,
    name: options.price === 0 ? 'Free entry' : 'Standing',
    capacity: options.capacity,
    maxPerOrder,
    price: options.price,
  });
  if (options.publish !== false) await call(baseUrl, organizer, 'events.publish', { eventId });
  return { eventId, ticketTypeId, capacity: options.capacity, price: options.price };
}

/**
 * One ticket of the sale (with its attendee's answers and a code, if given), with a fresh
 * idempotency key: what a buyer's `orders.create` sends.
 */
export function orderInput(sale: SaleEvent, answers?: Record<string, string>[], code?: string) {
  return {
    eventId: sale.eventId,
    lines: [{ ticketTypeId: sale.ticketTypeId, quantity: 1, ...(answers ? { answers } : {}) }],
    ...(code ? { code } : {}),
    idempotencyKey: randomUUID(),
  };
}

/** The same order as a request for the load generator, signed in as `buyer` (an API client unless told otherwise). */
export function orderRequest(
  sale: SaleEvent,
  buyer: Person,
  signIn: SignIn = asApiClient,
  answers?: Record<string, string>[],
  code?: string,
): LoadRequest {
  return {
    method: 'POST',
    path: '/fn/orders.create',
    headers: { 'content-type': 'application/json', ...signIn(buyer) },
    body: JSON.stringify({ data: orderInput(sale, answers, code) }),
  };
}

/**
 * A published event with `count` free tickets, issued the product's own way: orders of up to
 * `maxPerOrder` through `orders.create`, by as many buyers (`<buyerPrefix>-<n>`), a few in flight at a
 * time. Set-up, not measured.
 */
export async function issueFreeTickets(options: {
  baseUrl: string;
  databaseUrl: string;
  organizer: Person;
  organizationId: string;
  title: string;
  count: number;
  buyerPrefix: string;
  inFlight: number;
}) {
  const { baseUrl, count } = options;
  const sale = await createSaleEvent(baseUrl, options.organizer, options.organizationId, {
    title: options.title,
    capacity: count,
    price: 0,
  });
  const orders = Math.ceil(count / maxPerOrder);
  const buyers = await createPeople(options.databaseUrl, orders, options.buyerPrefix);
  let next = 0;
  await Promise.all(
    Array.from({ length: options.inFlight }, async () => {
      while (next < orders) {
        const index = next++;
        await call(baseUrl, buyers[index]!, 'orders.create', {
          eventId: sale.eventId,
          lines: [{ ticketTypeId: sale.ticketTypeId, quantity: Math.min(maxPerOrder, count - index * maxPerOrder) }],
          idempotencyKey: `bench-order-${sale.eventId}-${index}`,
        });
      }
    }),
  );
  return { sale, orders };
}
