import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from '../../platform/auth/auth';
import { organization } from '../../platform/auth/organization-schema';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole } from '../events/events.api';
import { event } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from './schema';
import { holdsTicket, ticketTokenOpens } from './ticket-access';

// Who may download a ticket's files (its PDF, its wallet passes): one rule for every such route.

export interface TicketFileDeps {
  db: Db;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** Whether a guest's token (`?token=`, from their email) opens the order (the orders module's rule, decision 0060). */
  tokenOpens(orderId: string, token: string): boolean;
  /** The secret a ticket's own link is signed with (decision 0065). */
  config: Pick<Config, 'AUTH_SECRET'>;
}

/** What every refusal to someone who may not read the tickets says: the same as for tickets that do not exist. */
export const noSuchTickets = 'No such tickets';

/** An id as orders and tickets have them: 1 to 64 characters, none of them a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const fileIdPattern = /^[^\u0000-\u001f\u007f]{1,64}$/;

/** The `?token=` of a file's address, when it is one string. */
export const tokenOf = (query: { token?: unknown }) => (typeof query.token === 'string' ? query.token : undefined);

/** How the user may read an order's tickets: as its buyer (those they still hold), as an admin (or owner) of the event's organization (all), or not. */
export async function readerOf(db: Db, user: SessionUser | null, found: { buyerId: string | null; eventId: string }) {
  if (!user) return null;
  try {
    await requireEventRole(db, user, found.eventId, 'admin');
    return 'admin';
  } catch (error) {
    if (!(error instanceof CallableError)) throw error;
    return found.buyerId === user.id ? 'buyer' : null;
  }
}

/** The order, event and organization a ticket file shows, by the order or the ticket asked for. */
export function ticketFileSource(db: Db) {
  return db
    .select({
      orderId: order.id,
      buyerId: order.buyerId,
      eventId: order.eventId,
      slug: event.slug,
      title: event.title,
      description: event.description,
      venue: event.venue,
      contentLocale: event.contentLocale,
      translations: event.translations,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      timeZone: event.timeZone,
      coverFile: event.coverFile,
      logoFile: organization.logo,
      organizer: organization.name,
    })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .innerJoin(organization, eq(organization.id, event.organizationId));
}
export type TicketFileSource = Awaited<ReturnType<ReturnType<typeof ticketFileSource>['where']>>[number];

/** Why a file is not given: to someone not signed in (and without a token), or as for tickets that do not exist. */
export interface TicketFileRefusal {
  code: 'unauthenticated' | 'not-found';
  message: string;
}

export type TicketFileAccess = { source: TicketFileSource } | { refused: TicketFileRefusal };

/**
 * Whether the request may read one ticket's files, and what they show: whoever holds the ticket
 * (ticket-access.ts: its buyer until it is sent on, then the person it was sent to, by their session
 * or a token) and the organization's admins. Anyone else is refused as for a ticket that does not
 * exist, so ticket ids reveal nothing. Void tickets are found too: whether a file shows them is the
 * route's to say.
 */
export async function ticketFileAccess(
  deps: TicketFileDeps,
  asked: { request: FastifyRequest; ticketId: string; token: string | undefined },
): Promise<TicketFileAccess> {
  const { request, ticketId, token } = asked;
  const user = await deps.getUser(request);
  if (!user && token === undefined) return { refused: { code: 'unauthenticated', message: 'Sign in to get the ticket' } };
  const notFound = { refused: { code: 'not-found', message: noSuchTickets } } as const;
  // No ticket has such an id, and a NUL would reach the database as a query it cannot run.
  if (!fileIdPattern.test(ticketId)) return notFound;
  const [held] = await deps.db
    .select({
      ticket: { id: ticket.id, transferredFrom: ticket.transferredFrom, holderUserId: ticket.holderUserId },
      orderId: ticket.orderId,
    })
    .from(ticket)
    .where(eq(ticket.id, ticketId));
  const [source] = held ? await ticketFileSource(deps.db).where(eq(order.id, held.orderId)) : [];
  if (!held || !source) return notFound;
  const caller = { userId: user?.id ?? null, accessToken: token, orderTokenOpens: deps.tokenOpens };
  const holds = holdsTicket(deps.config, caller, {
    ticket: held.ticket,
    order: { id: source.orderId, buyerId: source.buyerId },
  });
  // The ticket's own token opens its files also before it is ever sent on: the order's confirmation
  // links each ticket's wallet passes with it (decision 0067), and that email carries the ticket's
  // PDF and QR code already. Changing or sending the ticket stays with its holder (holdsTicket).
  const ownLink = ticketTokenOpens(deps.config, held.ticket.id, token);
  if (!holds && !ownLink && (await readerOf(deps.db, user, source)) !== 'admin') return notFound;
  return { source };
}
