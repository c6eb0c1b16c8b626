import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../platform/auth/auth';
import { organization } from '../../platform/auth/organization-schema';
import type { Db } from '../../platform/db/database';
import type { FileStorage } from '../../platform/files/storage';
import { jpegVariantOf, variantBytes } from '../../platform/files/uploads';
import { CallableError } from '../../platform/http/callable-error';
import { contentDisposition } from '../../platform/http/content-disposition';
import { sendError } from '../../platform/http/send-error';
import { localeOf } from '../../platform/mail/compose';
import { localizeEvent } from '@admit/shared/event-content';
import { formatOrderReference } from '@admit/shared/orders';
import { requireEventRole } from '../events/events.api';
import { event } from '../events/schema';
import { order } from '../orders/schema';
import type { Config } from '../../platform/config';
import { ticket } from './schema';
import { holdsTicket } from './ticket-access';
import { ticketsPdf } from './ticket-pdf';
import { validTicketsOf } from './valid-tickets';

export interface TicketPdfRouteDeps {
  db: Db;
  /** Where the cover and logo drawn on the tickets are kept. */
  storage: FileStorage;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** Whether a guest's token (`?token=`, from their email) opens the order (the orders module's rule, decision 0060). */
  tokenOpens(orderId: string, token: string): boolean;
  /** The secret a ticket's own link is signed with (decision 0065). */
  config: Pick<Config, 'AUTH_SECRET'>;
}

/** The cover's and the logo's JPEG bytes for the PDF (none where there is none). */
async function pictureBytes(deps: TicketPdfRouteDeps, coverFile: string | null, logoFile: string | null) {
  const [cover, logo] = await Promise.all([jpegVariantOf(deps.db, coverFile, 800), jpegVariantOf(deps.db, logoFile, 100)]);
  return {
    cover: cover && (await variantBytes(deps.storage, cover.key)),
    logo: logo && (await variantBytes(deps.storage, logo.key)),
  };
}

const notFound = (reply: FastifyReply) => sendError(reply, 'not-found', 'No such tickets');

/** An id as orders and tickets have them: 1 to 64 characters, none of them a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const idPattern = /^[^\u0000-\u001f\u007f]{1,64}$/;

/** How the user may read an order's tickets: as its buyer (those they still hold), as an admin (or owner) of the event's organization (all), or not. */
async function readerOf(db: Db, user: SessionUser | null, found: { buyerId: string | null; eventId: string }) {
  if (!user) return null;
  try {
    await requireEventRole(db, user, found.eventId, 'admin');
    return 'admin';
  } catch (error) {
    if (!(error instanceof CallableError)) throw error;
    return found.buyerId === user.id ? 'buyer' : null;
  }
}

/** The event and organization a PDF draws, by the order or the ticket asked for. */
function pdfSource(db: Db) {
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
      timeZone: event.timeZone,
      coverFile: event.coverFile,
      logoFile: organization.logo,
      organizer: organization.name,
    })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .innerJoin(organization, eq(organization.id, event.organizationId));
}
type PdfSource = Awaited<ReturnType<ReturnType<typeof pdfSource>['where']>>[number];

/** Draws the tickets `which` chooses of `found`'s event, in the asker's language, as an attachment (404 when none is valid). */
async function sendTicketsPdf(
  deps: TicketPdfRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  found: PdfSource,
  which: Parameters<typeof validTicketsOf>[1],
  filename: string,
) {
  const locale = localeOf(request.headers.cookie, request.headers['accept-language']);
  // The event's words in the PDF's language when the event has them, else in its main language.
  const shown = localizeEvent(found, locale);
  const tickets = await validTicketsOf(deps.db, which, { contentLocale: found.contentLocale, shownIn: shown.locale });
  if (tickets.length === 0) return notFound(reply);
  const pdf = await ticketsPdf({
    locale,
    event: { ...found, title: shown.title, venue: shown.venue },
    organizer: found.organizer,
    orderReference: formatOrderReference(found.orderId),
    tickets,
    pictures: await pictureBytes(deps, found.coverFile, found.logoFile),
  });
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition('attachment', filename))
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf));
}

/**
 * `GET /files/orders/:orderId/tickets.pdf`: the valid tickets of an order as a PDF, one page per
 * ticket, in the language of the person asking: for its buyer, those they still hold (not those
 * sent on to someone, decision 0065); for its organization's admins, all. Anyone who may not read
 * the order gets the same 404 as for an order that does not exist, so order ids reveal nothing. A
 * guest's `?token=` opens its own order's tickets, and no other's.
 *
 * `GET /files/tickets/:ticketId/ticket.pdf`: one ticket, for whoever holds it (ticket-access.ts:
 * its buyer until it is sent on, then the person it was sent to, by their session or the token of
 * the ticket's own link) and the organization's admins.
 */
export function registerTicketPdfRoute(app: FastifyInstance, deps: TicketPdfRouteDeps) {
  app.get<{ Params: { orderId: string }; Querystring: { token?: unknown } }>(
    '/files/orders/:orderId/tickets.pdf',
    async (request, reply) => {
      const { orderId } = request.params;
      const token = typeof request.query.token === 'string' ? request.query.token : undefined;
      const user = token === undefined ? await deps.getUser(request) : null;
      if (!user && token === undefined) return sendError(reply, 'unauthenticated', 'Sign in to get the tickets');
      // No order has such an id, and a NUL would reach the database as a query it cannot run.
      if (!idPattern.test(orderId)) return notFound(reply);
      if (token !== undefined && !deps.tokenOpens(orderId, token)) return notFound(reply);
      const [found] = await pdfSource(deps.db).where(eq(order.id, orderId));
      const reader = token === undefined ? found && (await readerOf(deps.db, user, found)) : 'buyer';
      if (!found || !reader) return notFound(reply);
      return sendTicketsPdf(
        deps,
        request,
        reply,
        found,
        { orderId, buyersOnly: reader === 'buyer' },
        `${found.slug}-tickets.pdf`,
      );
    },
  );

  app.get<{ Params: { ticketId: string }; Querystring: { token?: unknown } }>(
    '/files/tickets/:ticketId/ticket.pdf',
    async (request, reply) => {
      const { ticketId } = request.params;
      const token = typeof request.query.token === 'string' ? request.query.token : undefined;
      const user = await deps.getUser(request);
      if (!user && token === undefined) return sendError(reply, 'unauthenticated', 'Sign in to get the ticket');
      if (!idPattern.test(ticketId)) return notFound(reply);
      const [held] = await deps.db
        .select({
          ticket: { id: ticket.id, transferredFrom: ticket.transferredFrom, holderUserId: ticket.holderUserId },
          orderId: ticket.orderId,
        })
        .from(ticket)
        .where(eq(ticket.id, ticketId));
      const [found] = held ? await pdfSource(deps.db).where(eq(order.id, held.orderId)) : [];
      if (!held || !found) return notFound(reply);
      const caller = { userId: user?.id ?? null, accessToken: token, orderTokenOpens: deps.tokenOpens };
      const holds = holdsTicket(deps.config, caller, {
        ticket: held.ticket,
        order: { id: found.orderId, buyerId: found.buyerId },
      });
      if (!holds && (await readerOf(deps.db, user, found)) !== 'admin') return notFound(reply);
      return sendTicketsPdf(deps, request, reply, found, { ticketId }, `${found.slug}-ticket.pdf`);
    },
  );
}
