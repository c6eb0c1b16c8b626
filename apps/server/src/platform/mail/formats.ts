import type { Locale } from '@admit/shared/locales';

/**
 * When an event starts, on the clock of the event's own zone with the zone named ("Thursday,
 * January 10, 2030 at 7:00 PM GMT+1", "Donnerstag, 10. Januar 2030 um 19:00 MEZ"): a ticket holder
 * travels to the venue, so the venue's time is the one that counts.
 */
export function formatEventStart(locale: Locale, startsAt: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(startsAt);
}
