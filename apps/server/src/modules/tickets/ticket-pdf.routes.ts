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
import { ticketsPdf } from './ticket-pdf';
import { validTicketsOf } from './valid-tickets';

export interface TicketPdfRouteDeps {
  db: Db;
  /** Where the cover and logo drawn on the tickets are kept. */
  storage: FileStorage;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  /** Whether a guest's token (`?token=`, from their email) opens the order (the orders module's rule, decision 0060). */
  tokenOpens(orderId: string, token: string): boolean;
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

/** An id as orders have them: 1 to 64 characters, none of them a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const orderIdPattern = /^[^\u0000-\u001f\u007f]{1,64}$/;

/** Whether the user may read the order's tickets: its buyer, or an admin (or owner) of the event's organization. */
async function mayReadTickets(db: Db, user: SessionUser | null, found: { buyerId: string | null; eventId: string }) {
  if (!user) return false;
  if (found.buyerId === user.id) return true;
  try {
    await requireEventRole(db, user, found.eventId, 'admin');
    return true;
  } catch (error) {
    if (error instanceof CallableError) return false;
    throw error;
  }
}

/**
 * `GET /files/orders/:orderId/tickets.pdf`: the valid tickets of an order as a PDF, one page per
 * ticket, in the language of the person asking. Anyone who may not read the order gets the same
 * 404 as for an order that does not exist, so order ids reveal nothing. A guest's `?token=` opens
 * its own order's tickets, and no other's.
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
      if (!orderIdPattern.test(orderId)) return notFound(reply);
      if (token !== undefined && !deps.tokenOpens(orderId, token)) return notFound(reply);

      const [found] = await deps.db
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
        .innerJoin(organization, eq(organization.id, event.organizationId))
        .where(eq(order.id, orderId));
      if (!found || (token === undefined && !(await mayReadTickets(deps.db, user, found)))) return notFound(reply);

      const locale = localeOf(request.headers.cookie, request.headers['accept-language']);
      // The event's words in the PDF's language when the event has them, else in its main language.
      const shown = localizeEvent(found, locale);
      const tickets = await validTicketsOf(deps.db, orderId, { contentLocale: found.contentLocale, shownIn: shown.locale });
      if (tickets.length === 0) return notFound(reply);

      const pdf = await ticketsPdf({
        locale,
        event: { ...found, title: shown.title, venue: shown.venue },
        organizer: found.organizer,
        orderReference: formatOrderReference(orderId),
        tickets,
        pictures: await pictureBytes(deps, found.coverFile, found.logoFile),
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition('attachment', `${found.slug}-tickets.pdf`))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );
}
