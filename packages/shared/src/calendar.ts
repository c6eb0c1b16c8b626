/**
 * An event as a calendar entry: an iCalendar file (RFC 5545) for Apple Calendar, Outlook and any
 * other calendar app, and the links that open Google Calendar's and Outlook.com's "new event" form
 * already filled in. My tickets and the confirmation email offer all three (decision 0044).
 */
export interface CalendarEntry {
  /** Stays the same for the same event, so importing the file again updates the entry instead of adding one. */
  uid: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  /** The event's IANA time zone: calendar apps show the entry in it when they are asked to. */
  timeZone: string;
  venue: string;
  /** The event's public page: the entry's link back. */
  url: string;
  description?: string;
  cancelled?: boolean;
  /** Rises with each change of time or place: a calendar replaces its entry by one with a higher SEQUENCE. */
  sequence?: number;
}

/**
 * The calendar entry of an event as Admit at `publicUrl` shows it: its UID is the event's id at
 * Admit's host (the same in the file, the email and My tickets), its link the event's public page.
 */
export function eventCalendarEntry(
  event: {
    id: string;
    slug: string;
    title: string;
    venue: string;
    startsAt: Date | string;
    endsAt: Date | string;
    timeZone: string;
    description?: string;
    cancelled?: boolean;
    calendarSequence?: number;
  },
  publicUrl: string,
): CalendarEntry {
  const url = new URL(`/e/${encodeURIComponent(event.slug)}`, publicUrl);
  return {
    uid: `${event.id}@${url.hostname}`,
    title: event.title,
    startsAt: new Date(event.startsAt),
    endsAt: new Date(event.endsAt),
    timeZone: event.timeZone,
    venue: event.venue,
    url: url.toString(),
    description: event.description,
    cancelled: event.cancelled,
    sequence: event.calendarSequence ?? 0,
  };
}

/** 2030-03-14T19:00:00.000Z as iCalendar's UTC form, 20300314T190000Z. */
const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Text as an iCalendar value: backslash, semicolon and comma escaped, line breaks as \n. */
const icsText = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

const encoder = new TextEncoder();

/**
 * A content line folded as RFC 5545 asks: no line longer than 75 octets, each continuation starting
 * with a space, never cutting a character's UTF-8 bytes apart.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; a continuation's leading space takes one of its 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/**
 * The iCalendar file of one event. Times are written in UTC, which every calendar app reads the same
 * way and converts to the reader's zone; the event's own zone is named for apps that show it
 * (X-WR-TIMEZONE) and in the description, since a TZID would need the zone's rules spelled out.
 */
export function eventIcs(entry: CalendarEntry, now = new Date()): string {
  const description = [entry.description?.trim(), entry.url].filter(Boolean).join('\n\n');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Admit//Tickets//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-TIMEZONE:${entry.timeZone}`,
    'BEGIN:VEVENT',
    `UID:${entry.uid}`,
    `SEQUENCE:${entry.sequence ?? 0}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${utcStamp(entry.startsAt)}`,
    `DTEND:${utcStamp(entry.endsAt)}`,
    `SUMMARY:${icsText(entry.title)}`,
    `LOCATION:${icsText(entry.venue)}`,
    `DESCRIPTION:${icsText(description)}`,
    `URL:${entry.url}`,
    `STATUS:${entry.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** A description for a link, kept short: the address bar and the calendars' forms cut long ones off. */
const linkDescription = (entry: CalendarEntry) => {
  const text = entry.description?.trim() ?? '';
  const shortened = text.length > 500 ? `${text.slice(0, 499)}…` : text;
  return [shortened, entry.url].filter(Boolean).join('\n\n');
};

/** Google Calendar's form for a new event, filled in with this one (in its own time zone). */
export function googleCalendarUrl(entry: CalendarEntry): string {
  const url = new URL('https://calendar.google.com/calendar/render');
  url.searchParams.set('action', 'TEMPLATE');
  url.searchParams.set('text', entry.title);
  url.searchParams.set('dates', `${utcStamp(entry.startsAt)}/${utcStamp(entry.endsAt)}`);
  url.searchParams.set('ctz', entry.timeZone);
  url.searchParams.set('location', entry.venue);
  url.searchParams.set('details', linkDescription(entry));
  return url.toString();
}

/** Outlook.com's form for a new event, filled in with this one. */
export function outlookCalendarUrl(entry: CalendarEntry): string {
  const url = new URL('https://outlook.live.com/calendar/0/deeplink/compose');
  url.searchParams.set('path', '/calendar/action/compose');
  url.searchParams.set('rru', 'addevent');
  url.searchParams.set('subject', entry.title);
  url.searchParams.set('startdt', entry.startsAt.toISOString());
  url.searchParams.set('enddt', entry.endsAt.toISOString());
  url.searchParams.set('location', entry.venue);
  url.searchParams.set('body', linkDescription(entry));
  return url.toString();
}

/** Where the server sends an event's iCalendar file, in `locale`'s words when the event has them. */
export const calendarFilePath = (slug: string, locale?: string) =>
  `/files/events/${encodeURIComponent(slug)}/calendar.ics${locale ? `?lang=${encodeURIComponent(locale)}` : ''}`;
