import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileStorage } from '../../platform/files/storage';
import { jpegVariantOf, variantBytes } from '../../platform/files/uploads';
import { contentDisposition } from '../../platform/http/content-disposition';
import { sendError } from '../../platform/http/send-error';
import { localeOf } from '../../platform/mail/compose';
import { localizeEvent } from '@admit/shared/event-content';
import { formatOrderReference } from '@admit/shared/orders';
import { order } from '../orders/schema';
import {
  fileIdPattern,
  noSuchTickets,
  readerOf,
  ticketFileAccess,
  ticketFileSource,
  tokenOf,
  type TicketFileDeps,
  type TicketFileSource,
} from './ticket-file-access';
import { ticketsPdf } from './ticket-pdf-on-demand';
import { validTicketsOf } from './valid-tickets';

export interface TicketPdfRouteDeps extends TicketFileDeps {
  /** Where the cover and logo drawn on the tickets are kept. */
  storage: FileStorage;
}

/** The cover's and the logo's JPEG bytes for the PDF (none where there is none). */
async function pictureBytes(deps: TicketPdfRouteDeps, coverFile: string | null, logoFile: string | null) {
  const [cover, logo] = await Promise.all([jpegVariantOf(deps.db, coverFile, 800), jpegVariantOf(deps.db, logoFile, 100)]);
  return {
    cover: cover && (await variantBytes(deps.storage, cover.key)),
    logo: logo && (await variantBytes(deps.storage, logo.key)),
  };
}

const notFound = (reply: FastifyReply) => sendError(reply, 'not-found', noSuchTickets);

/** Draws the tickets `which` chooses of `found`'s event, in the asker's language, as an attachment (404 when none is valid). */
async function sendTicketsPdf(
  deps: TicketPdfRouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  found: TicketFileSource,
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
      const token = tokenOf(request.query);
      const user = token === undefined ? await deps.getUser(request) : null;
      if (!user && token === undefined) return sendError(reply, 'unauthenticated', 'Sign in to get the tickets');
      // No order has such an id, and a NUL would reach the database as a query it cannot run.
      if (!fileIdPattern.test(orderId)) return notFound(reply);
      if (token !== undefined && !deps.tokenOpens(orderId, token)) return notFound(reply);
      const [found] = await ticketFileSource(deps.db).where(eq(order.id, orderId));
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
      const access = await ticketFileAccess(deps, { request, ticketId, token: tokenOf(request.query) });
      if ('refused' in access) return sendError(reply, access.refused.code, access.refused.message);
      const found = access.source;
      return sendTicketsPdf(deps, request, reply, found, { ticketId }, `${found.slug}-ticket.pdf`);
    },
  );
}
