import { createContext, useContext, useSyncExternalStore } from 'react';

/** The viewer's own IANA time zone. */
export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The cookie that tells the server the viewer's zone, so that the first view it draws shows their times. */
export const timeZoneCookie = 'admit-tz';

/**
 * The viewer's zone the page's first view was drawn with: on the server, the one the browser told it
 * (null: unknown, the view shows the event's own zone only); in the browser, the one the server used.
 */
export const FirstViewTimeZone = createContext<string | null>(null);

const unchanging = () => () => {};

/**
 * The viewer's zone for a screen: the browser's, except while the browser takes over a page the
 * server drew, when it is the one the server drew it with (the page must match it), then the
 * browser's at once.
 */
export function useViewerTimeZone(): string | null {
  const drawnWith = useContext(FirstViewTimeZone);
  return useSyncExternalStore(unchanging, viewerTimeZone, () => drawnWith);
}

/** Whether two zones show a different wall-clock time at this instant. */
export function zonesDiffer(instant: Date, zoneA: string, zoneB: string): boolean {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).format(instant);
  return format(zoneA) !== format(zoneB);
}

/**
 * Plain spaces for the thin and narrow ones some Intl builds put around times and ranges: Chromium
 * writes plain ones and Node thin ones, and the first view the server draws (decision 0049) must
 * read exactly as the browser draws it.
 */
export const sameSpaces = (text: string) => text.replace(/[\u2009\u202f]/g, ' ');

/** "Fri, 10 Jan 2030, 19:00 – 23:00 CET" in the locale, in the given zone. */
export function formatRange(locale: string, startsAt: string, endsAt: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return sameSpaces(format.formatRange(new Date(startsAt), new Date(endsAt)));
}

/** "Fri, 10 Jan 2030, 19:00 CET" in the locale, in the given zone: an instant as formatRange writes its ends. */
export function formatMoment(locale: string, at: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return sameSpaces(format.format(new Date(at)));
}
