import { localizeEvent, localizeTicketTypeName } from '@admit/shared/localize-event';
import { isLocale, type Locale } from '@admit/shared/locales';
import type { MyOrderRow } from '@admit/shared/orders';
import type { MyTicketRow } from '@admit/shared/tickets';
import { useSearch } from '@tanstack/react-router';
import { useLocale } from './i18n';

/** The search parameter that picks the language of an event's words on its page (`/e/jazz-night?lang=fr`). */
export const eventLanguageParam = 'lang';

/**
 * The language a visitor asked to read events in: the one chosen on the event's page (kept in the
 * URL, so a link shares it), else the language of the interface. `localizeEvent` falls back to the
 * event's main language when the event has no translation into it (decision 0040).
 */
export function useEventLanguage(): Locale {
  const { locale } = useLocale();
  const chosen = useSearch({ strict: false, select: (search: Record<string, unknown>) => search[eventLanguageParam] });
  return isLocale(chosen) ? chosen : locale;
}

/**
 * A ticket as the buyer reads it: its event's title and venue and its ticket type's name in
 * `locale` when the event has them in it, else in the event's main language (`shownIn`).
 */
export function localizeTicket<T extends MyTicketRow>(ticket: T, locale: Locale): T & { shownIn: Locale } {
  const shown = localizeEvent(
    {
      title: ticket.eventTitle,
      description: '',
      venue: ticket.venue,
      contentLocale: ticket.contentLocale,
      translations: ticket.eventTranslations,
    },
    locale,
  );
  const type = localizeTicketTypeName(
    { name: ticket.ticketTypeName, nameTranslations: ticket.ticketTypeNameTranslations },
    ticket.contentLocale,
    shown.locale,
  );
  return { ...ticket, eventTitle: shown.title, venue: shown.venue, ticketTypeName: type.name, shownIn: shown.locale };
}

/** An order as its buyer reads it, the same way: its event's title and its lines' names. */
export function localizeOrder<T extends MyOrderRow>(order: T, locale: Locale): T & { shownIn: Locale } {
  const shown = localizeEvent(
    {
      title: order.eventTitle,
      description: '',
      venue: '',
      contentLocale: order.contentLocale,
      translations: order.eventTranslations,
    },
    locale,
  );
  const lines = order.lines.map((line) => ({
    ...line,
    ticketTypeName: localizeTicketTypeName(
      { name: line.ticketTypeName, nameTranslations: line.nameTranslations },
      order.contentLocale,
      shown.locale,
    ).name,
  }));
  return { ...order, eventTitle: shown.title, lines, shownIn: shown.locale };
}
