import { randomUUID } from 'node:crypto';
import type { CallableContract } from '@admit/shared/callable';
import {
  managedTicketTypes,
  updateTicketType,
  type ManagedTicketTypeRow,
  type UpdateTicketTypeInput,
} from '@admit/shared/event-changes';
import { addTicketType, createEvent, publishEvent, type CreateEventInput } from '@admit/shared/events';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { createOrg, type OrgRole } from '@admit/shared/orgs';
import { sandboxConfirm } from '@admit/shared/payments';
import type { z } from 'zod';
import { asc, eq } from 'drizzle-orm';
import { ticket } from '../modules/tickets/schema';
import { member } from '../platform/auth/organization-schema';
import { watch } from './live-watch';
import type { TestApp } from './test-app';

// Set-up steps shared by the server tests. They go through the real callables (so that a test's
// starting state is one the product can reach) and fail loudly when a step does not succeed.

async function expectResult<C extends CallableContract>(
  t: TestApp,
  contract: C,
  data: z.input<C['input']>,
  cookie: string,
): Promise<z.output<C['output']>> {
  const { status, body } = await t.call(contract, data, cookie);
  if (status !== 200) throw new Error(`set-up call ${contract.name} failed: ${status} ${JSON.stringify(body)}`);
  return body.result;
}

export async function createOrgAs(t: TestApp, cookie: string, name = 'Night Owls') {
  return expectResult(t, createOrg, { name }, cookie);
}

export const eventInput = (organizationId: string, overrides: Partial<CreateEventInput> = {}): CreateEventInput => ({
  organizationId,
  title: 'Jazz night',
  venue: 'Club Blau',
  timeZone: 'Europe/Berlin',
  startsAtLocal: '2030-01-10T19:00',
  endsAtLocal: '2030-01-10T23:00',
  capacity: 100,
  ...overrides,
});

export async function createEventAs(
  t: TestApp,
  cookie: string,
  organizationId: string,
  overrides: Partial<CreateEventInput> = {},
) {
  return expectResult(t, createEvent, eventInput(organizationId, overrides), cookie);
}

export async function addTicketTypeAs(
  t: TestApp,
  cookie: string,
  eventId: string,
  ticketType: { name?: string; capacity: number; maxPerOrder?: number; price?: number },
) {
  const { ticketTypeId } = await expectResult(
    t,
    addTicketType,
    {
      eventId,
      name: ticketType.name ?? 'Standing',
      capacity: ticketType.capacity,
      maxPerOrder: ticketType.maxPerOrder ?? 10,
      price: ticketType.price ?? 0,
    },
    cookie,
  );
  return ticketTypeId;
}

export async function publishAs(t: TestApp, cookie: string, eventId: string) {
  await expectResult(t, publishEvent, { eventId }, cookie);
}

/** An organization owned by `cookie`'s person with one published event and its ticket types. */
export async function createPublishedEvent(
  t: TestApp,
  cookie: string,
  options: {
    organizationId?: string;
    capacity?: number;
    ticketTypes?: { name?: string; capacity: number; maxPerOrder?: number; price?: number }[];
  } = {},
) {
  const organizationId = options.organizationId ?? (await createOrgAs(t, cookie)).organizationId;
  const { eventId, slug } = await createEventAs(t, cookie, organizationId, { capacity: options.capacity ?? 100 });
  const ticketTypeIds: string[] = [];
  for (const ticketType of options.ticketTypes ?? [{ capacity: 50 }])
    ticketTypeIds.push(await addTicketTypeAs(t, cookie, eventId, ticketType));
  await publishAs(t, cookie, eventId);
  return { organizationId, eventId, slug, ticketTypeIds };
}

/**
 * Makes a person a member of an organization directly in the database: quicker than an invitation
 * (tested in modules/orgs/members.test.ts), and the tests of roles need admins and staff.
 */
export async function addMember(t: TestApp, organizationId: string, userId: string, role: OrgRole) {
  await t.db.insert(member).values({ id: randomUUID(), organizationId, userId, role });
}

/**
 * Changes some of a ticket type's settings through the callable its edit dialog uses, keeping the
 * others as its organizers' live list shows them. `url` is the listening test server's.
 */
export async function changeTicketTypeAs(
  t: TestApp,
  url: string,
  cookie: string,
  type: { eventId: string; ticketTypeId: string },
  changes: Partial<Omit<UpdateTicketTypeInput, 'ticketTypeId'>>,
) {
  const managed = await watch(url, managedTicketTypes.name, { eventId: type.eventId }, cookie);
  const row = managed.rows().find((one) => one.id === type.ticketTypeId) as ManagedTicketTypeRow | undefined;
  managed.close();
  if (!row) throw new Error(`no ticket type ${type.ticketTypeId} in the event`);
  const { name, price, capacity, maxPerOrder, maxPerBuyer, salesStartLocal, salesEndLocal, hidden } = row;
  const current = { name, price, capacity, maxPerOrder, maxPerBuyer, salesStartLocal, salesEndLocal, hidden };
  await expectResult(t, updateTicketType, { ticketTypeId: type.ticketTypeId, ...current, ...changes }, cookie);
}

/**
 * Pays a pending order as its buyer does with the sandbox provider's test card (the payment
 * started, the card confirmed, the server asked to read it back); the order's status after.
 */
export async function payWithTestCard(t: TestApp, cookie: string, orderId: string) {
  const { clientSecret } = await expectResult(t, startPayment, { orderId }, cookie);
  await expectResult(t, sandboxConfirm, { clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }, cookie);
  return (await expectResult(t, confirmPayment, { orderId }, cookie)).status;
}

/**
 * A published event of `ownerCookie`'s (one €25.00 type) and `buyerCookie`'s paid order of two of its
 * tickets, paid with the sandbox's test card: the tickets in order, with their codes.
 */
export async function paidTickets(t: TestApp, ownerCookie: string, buyerCookie: string) {
  const created = await createPublishedEvent(t, ownerCookie, { ticketTypes: [{ name: 'Standing', capacity: 20, price: 2500 }] });
  const { orderId } = await expectResult(
    t,
    createOrder,
    { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity: 2 }] },
    buyerCookie,
  );
  await payWithTestCard(t, buyerCookie, orderId);
  const tickets = await t.db
    .select({ id: ticket.id, code: ticket.code })
    .from(ticket)
    .where(eq(ticket.orderId, orderId))
    .orderBy(asc(ticket.createdAt), asc(ticket.id));
  return { ...created, orderId, tickets };
}
