import { describe, expect, it } from 'vitest';
import { eventIcs, foldLine, googleCalendarUrl, outlookCalendarUrl, type CalendarEntry } from './calendar';

const jazz: CalendarEntry = {
  uid: 'event-1@admit.example',
  title: 'Jazz night; with friends, live',
  startsAt: new Date('2030-03-14T19:00:00Z'),
  endsAt: new Date('2030-03-14T22:00:00Z'),
  timeZone: 'Europe/Paris',
  venue: 'Salle Pleyel, 252 rue du Faubourg Saint-Honoré, Paris',
  url: 'https://tickets.example/e/jazz-night',
  description: 'Doors at 19:30.\nBring a friend \\ or two.',
};

/** The file's lines with folded ones joined again, as a calendar app reads them. */
const unfolded = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('an event as a calendar entry', () => {
  it('writes an iCalendar file with the event in UTC, its zone named, and its page linked', () => {
    const ics = eventIcs(jazz, new Date('2026-11-25T10:00:00Z'));
    const lines = unfolded(ics);
    expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
    expect(lines).toContain('X-WR-TIMEZONE:Europe/Paris');
    expect(lines).toContain('UID:event-1@admit.example');
    expect(lines).toContain('DTSTAMP:20261125T100000Z');
    expect(lines).toContain('DTSTART:20300314T190000Z');
    expect(lines).toContain('DTEND:20300314T220000Z');
    expect(lines).toContain('URL:https://tickets.example/e/jazz-night');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
    expect(ics.endsWith('\r\n')).toBe(true);
  });

  it('escapes the characters iCalendar gives a meaning to, and writes line breaks as \\n', () => {
    const lines = unfolded(eventIcs(jazz));
    expect(lines).toContain('SUMMARY:Jazz night\\; with friends\\, live');
    expect(lines).toContain('LOCATION:Salle Pleyel\\, 252 rue du Faubourg Saint-Honoré\\, Paris');
    expect(lines).toContain(
      'DESCRIPTION:Doors at 19:30.\\nBring a friend \\\\ or two.\\n\\nhttps://tickets.example/e/jazz-night',
    );
  });

  it('marks a cancelled event as cancelled, so calendars that have it strike it out', () => {
    expect(unfolded(eventIcs({ ...jazz, cancelled: true }))).toContain('STATUS:CANCELLED');
  });

  it('writes the SEQUENCE the event reached, 0 before any change, under the same UID', () => {
    expect(unfolded(eventIcs(jazz))).toContain('SEQUENCE:0');
    const moved = unfolded(eventIcs({ ...jazz, sequence: 2 }));
    expect(moved).toContain('SEQUENCE:2');
    expect(moved).toContain(`UID:${jazz.uid}`);
  });

  it('folds long lines at 75 octets without cutting a character in two', () => {
    const line = `SUMMARY:${'ジャズの夜'.repeat(20)}`;
    const folded = foldLine(line);
    const octets = (text: string) => new TextEncoder().encode(text).length;
    for (const part of folded.split('\r\n')) expect(octets(part)).toBeLessThanOrEqual(75);
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((part) => part.startsWith(' ')),
    ).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
  });

  it('fills in Google Calendar’s form with the times in UTC and the event’s zone', () => {
    const url = new URL(googleCalendarUrl(jazz));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe(jazz.title);
    expect(url.searchParams.get('dates')).toBe('20300314T190000Z/20300314T220000Z');
    expect(url.searchParams.get('ctz')).toBe('Europe/Paris');
    expect(url.searchParams.get('location')).toBe(jazz.venue);
    expect(url.searchParams.get('details')).toContain('https://tickets.example/e/jazz-night');
  });

  it('fills in Outlook.com’s form with the same event', () => {
    const url = new URL(outlookCalendarUrl(jazz));
    expect(url.hostname).toBe('outlook.live.com');
    expect(url.searchParams.get('subject')).toBe(jazz.title);
    expect(url.searchParams.get('startdt')).toBe('2030-03-14T19:00:00.000Z');
    expect(url.searchParams.get('enddt')).toBe('2030-03-14T22:00:00.000Z');
    expect(url.searchParams.get('location')).toBe(jazz.venue);
  });
});
