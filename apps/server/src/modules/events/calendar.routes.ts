import { eventCalendarEntry, eventIcs } from '@admit/shared/calendar';
import { localizeEvent } from '@admit/shared/event-content';
import { isLocale } from '@admit/shared/locales';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import { contentDisposition } from '../../platform/http/content-disposition';
import { sendError } from '../../platform/http/send-error';
import { localeOf } from '../../platform/mail/compose';
import { event } from './schema';

export interface CalendarRouteDeps {
  db: Db;
  /** Admit's address: the entry's link back to the event's page, and its UID's domain. */
  publicUrl: string;
}

/** A slug as events have them (letters, digits, dashes), as the event page's route takes it. */
const slugPattern = /^[\w-]{1,120}$/;

/**
 * `GET /files/events/:slug/calendar.ics`: a public event as an iCalendar file, for a calendar app
 * (My tickets and the confirmation email link to it). It says only what the event's public page
 * says, so it needs no sign-in; a draft or an unknown slug is a 404. The words are in `?lang=` when
 * the event has that language, else the visitor's, else the event's main language.
 */
export function registerCalendarRoute(app: FastifyInstance, deps: CalendarRouteDeps) {
  app.get<{ Params: { slug: string }; Querystring: { lang?: unknown } }>(
    '/files/events/:slug/calendar.ics',
    async (request, reply) => {
      const { slug } = request.params;
      if (!slugPattern.test(slug)) return sendError(reply, 'not-found', 'No such event');
      const [found] = await deps.db
        .select()
        .from(event)
        .where(and(eq(event.slug, slug), ne(event.status, 'draft')));
      if (!found) return sendError(reply, 'not-found', 'No such event');

      const asked = request.query.lang;
      const locale = isLocale(asked) ? asked : localeOf(request.headers.cookie, request.headers['accept-language']);
      const shown = localizeEvent(found, locale);
      const ics = eventIcs(eventCalendarEntry({ ...found, ...shown, cancelled: found.status === 'cancelled' }, deps.publicUrl));
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', contentDisposition('attachment', `${slug}.ics`))
        .header('cache-control', 'no-cache')
        .send(ics);
    },
  );
}
