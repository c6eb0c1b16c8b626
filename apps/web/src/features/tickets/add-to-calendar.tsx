import { calendarFilePath, eventCalendarEntry, googleCalendarUrl, outlookCalendarUrl } from '@admit/shared/calendar';
import type { Locale } from '@admit/shared/locales';
import { Button, Menu } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { FormattedMessage } from 'react-intl';

export interface CalendarEvent {
  eventId: string;
  eventSlug: string;
  eventTitle: string;
  venue: string;
  startsAt: string;
  endsAt: string;
  timeZone: string;
  /** The language the event's words are shown in: the calendar file is asked for in the same. */
  shownIn: Locale;
}

/**
 * "Add to calendar": the event as a file for Apple Calendar, Outlook and other calendar apps, or
 * Google Calendar's and Outlook.com's form filled in. Each is a link, so it works with the keyboard
 * and opens where the person's browser opens links.
 */
export function AddToCalendar({ event }: { event: CalendarEvent }) {
  const entry = eventCalendarEntry(
    {
      id: event.eventId,
      slug: event.eventSlug,
      title: event.eventTitle,
      venue: event.venue,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      timeZone: event.timeZone,
    },
    window.location.origin,
  );
  return (
    <Menu position="bottom" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" leftSection={<IconCalendarPlus size={16} aria-hidden />}>
          <FormattedMessage id="calendar.add" defaultMessage="Add to calendar" />
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={calendarFilePath(event.eventSlug, event.shownIn)} download={`${event.eventSlug}.ics`}>
          <FormattedMessage id="calendar.file" defaultMessage="Apple Calendar, Outlook (.ics file)" />
        </Menu.Item>
        <Menu.Item component="a" href={googleCalendarUrl(entry)} target="_blank" rel="noopener noreferrer">
          <FormattedMessage id="calendar.google" defaultMessage="Google Calendar" />
        </Menu.Item>
        <Menu.Item component="a" href={outlookCalendarUrl(entry)} target="_blank" rel="noopener noreferrer">
          <FormattedMessage id="calendar.outlook" defaultMessage="Outlook.com" />
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
