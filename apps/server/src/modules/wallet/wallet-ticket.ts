import { instantToZonedLocal } from '@admit/shared/dates';
import { localizeEvent, localizeTicketTypeName } from '@admit/shared/event-content';
import type { Locale } from '@admit/shared/locales';
import { formatOrderReference } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { jpegVariantOf } from '../../platform/files/uploads';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import { ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import type { TicketFileSource } from '../tickets/tickets.api';

/** What a wallet pass shows of one ticket, in the language of the person who asked for it. */
export interface WalletTicket {
  id: string;
  /** The signed code the door's scanner reads (tickets/ticket-code.ts): the pass's barcode, as on the PDF. */
  code: string;
  /** A void ticket (sent on, resold, refunded) still has its pass, marked void. */
  void: boolean;
  holderName: string;
  ticketTypeName: string;
  orderReference: string;
  organizer: string;
  event: { id: string; title: string; venue: string; startsAt: Date; endsAt: Date; timeZone: string };
  /** The language of the pass's own words; `contentLocale`, that of the event's words shown. */
  locale: Locale;
  contentLocale: Locale;
  /** The organization's logo, a JPEG variant of its upload, or null. */
  logo: { key: string } | null;
}

/** At most this many characters of a name or title: a pass field is a line on a phone. */
const shortened = (text: string, max: number) => shorten(text.replace(/\s+/g, ' ').trim(), max);

/** One ticket as its wallet passes show it, `source` being its order's event and organization; null when it is gone. */
export async function walletTicketOf(
  db: Db,
  asked: { source: TicketFileSource; ticketId: string; locale: Locale },
): Promise<WalletTicket | null> {
  const { source, ticketId, locale } = asked;
  const [found] = await db
    .select({
      code: ticket.code,
      status: ticket.status,
      holderName: ticket.holderName,
      name: ticketType.name,
      nameTranslations: ticketType.nameTranslations,
    })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(eq(ticket.id, ticketId));
  if (!found) return null;
  // The event's words in the pass's language when the event has them, else in its main language.
  const shown = localizeEvent(source, locale);
  const typeName = localizeTicketTypeName(found, source.contentLocale, shown.locale).name;
  // The smallest JPEG at least 400 pixels wide: enough for a logo at three times a phone's pixels.
  const logo = await jpegVariantOf(db, source.logoFile, 400);
  return {
    id: ticketId,
    code: found.code,
    void: found.status === 'void',
    holderName: shortened(found.holderName, shownMax.personName),
    ticketTypeName: shortened(typeName, shownMax.title),
    orderReference: formatOrderReference(source.orderId),
    organizer: shortened(source.organizer, shownMax.title),
    event: {
      id: source.eventId,
      title: shortened(shown.title, shownMax.title),
      venue: shortened(shown.venue, shownMax.venue),
      startsAt: source.startsAt,
      endsAt: source.endsAt,
      timeZone: source.timeZone,
    },
    locale,
    contentLocale: shown.locale,
    logo: logo && { key: logo.key },
  };
}

/**
 * When the event starts, short, on the clock of the event's own zone with the zone named ("Thu, Jan
 * 10, 2030, 7:00 PM GMT+1"): a holder travels to the venue, so the venue's time is the one that counts.
 */
export function passStartText(locale: Locale, startsAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(startsAt);
}

/** An instant as ISO 8601 with the offset of `timeZone` then (`2030-01-10T19:00:00+01:00`): the venue's local time. */
export function zonedIso(instant: Date, timeZone: string): string {
  const zone = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')!.value;
  // "GMT+01:00", or "GMT" when the offset is zero.
  const offset = zone === 'GMT' ? '+00:00' : zone.slice('GMT'.length);
  return `${instantToZonedLocal(instant, timeZone)}:00${offset}`;
}
