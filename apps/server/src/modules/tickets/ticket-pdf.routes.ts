import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../platform/auth/auth';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { contentDisposition } from '../../platform/http/content-disposition';
import { localeOf } from '../../platform/mail/compose';
import { formatOrderReference } from '../../platform/mail/formats';
import { ticketsPdf } from '../../platform/pdf/ticket-pdf';
import { event, ticketType } from '../events/schema';
import { order, ticket } from '../orders/schema';

export interface TicketPdfRouteDeps {
  db: Db;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
}

const notFound = (reply: FastifyReply) => reply.code(404).send({ error: { status: 'not-found', message: 'No such tickets' } });

/** Whether the user may read the order's tickets: its buyer, or an admin (or owner) of the event's organization. */
async function mayReadTickets(db: Db, user: SessionUser, found: { buyerId: string | null; organizationId: string }) {
  if (found.buyerId === user.id) return true;
  try {
    await requireOrgRole(db, user, found.organizationId, 'admin');
    return true;
  } catch (error) {
    if (error instanceof CallableError) return false;
    throw error;
  }
}

/**
 * `GET /files/orders/:orderId/tickets.pdf`: the valid tickets of an order as a PDF, one page per
 * ticket, in the language of the person asking. Anyone who may not read the order gets the same
 * 404 as for an order that does not exist, so order ids reveal nothing.
 */
export function registerTicketPdfRoute(app: FastifyInstance, deps: TicketPdfRouteDeps) {
  app.get<{ Params: { orderId: string } }>('/files/orders/:orderId/tickets.pdf', async (request, reply) => {
    const user = await deps.getUser(request);
    if (!user) return reply.code(401).send({ error: { status: 'unauthenticated', message: 'Sign in to get the tickets' } });
    const { orderId } = request.params;
    if (orderId.length > 64) return notFound(reply);

    const [found] = await deps.db
      .select({
        orderId: order.id,
        buyerId: order.buyerId,
        organizationId: event.organizationId,
        slug: event.slug,
        title: event.title,
        venue: event.venue,
        startsAt: event.startsAt,
        timeZone: event.timeZone,
      })
      .from(order)
      .innerJoin(event, eq(event.id, order.eventId))
      .where(eq(order.id, orderId));
    if (!found || !(await mayReadTickets(deps.db, user, found))) return notFound(reply);

    const tickets = await deps.db
      .select({ code: ticket.code, holderName: ticket.holderName, ticketTypeName: ticketType.name })
      .from(ticket)
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(and(eq(ticket.orderId, orderId), eq(ticket.status, 'valid')))
      .orderBy(asc(ticketType.position), asc(ticket.createdAt), asc(ticket.id));
    if (tickets.length === 0) return notFound(reply);

    const pdf = await ticketsPdf({
      locale: localeOf(request.headers.cookie, request.headers['accept-language']),
      event: found,
      orderReference: formatOrderReference(orderId),
      tickets,
    });
    return reply
      .type('application/pdf')
      .header('content-disposition', contentDisposition('attachment', `${found.slug}-tickets.pdf`))
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(pdf));
  });
}
