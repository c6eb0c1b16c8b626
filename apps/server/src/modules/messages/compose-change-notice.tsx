import { eventCalendarEntry, eventIcs } from '@admit/shared/calendar';
import type { Locale } from '@admit/shared/locales';
import { Text } from '@react-email/text';
import { mailIntl, renderEmailParts } from '../../platform/mail/compose';
import { EmailFrame, emailStyles, type EmailImage } from '../../platform/mail/email-frame';
import { formatEventStart } from '../../platform/mail/formats';
import type { Email } from '../../platform/mail/mailer';
import { mailMessages } from '../../platform/mail/messages';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import type { TimeAndPlace } from '../events/schema';

export interface ChangeNoticeContent {
  to: string;
  locale: Locale;
  /** The holder's name as the ticket has it. */
  name: string;
  organizer: string;
  /** The event as the person reads it now (title and venue in their language where it has them). */
  event: {
    id: string;
    slug: string;
    title: string;
    venue: string;
    startsAt: Date;
    endsAt: Date;
    timeZone: string;
    calendarSequence: number;
    cancelled: boolean;
  };
  change: { before: TimeAndPlace; after: TimeAndPlace };
  publicUrl: string;
  logo?: EmailImage | null;
}

/** The lines of a change that say what was and what is, only for what changed. */
export function changeLines(locale: Locale, change: ChangeNoticeContent['change'], timeZone: string): string[] {
  const intl = mailIntl(locale);
  const when = (iso: string) => formatEventStart(locale, new Date(iso), timeZone);
  const place = (venue: string) => shorten(venue, shownMax.venue);
  const lines: string[] = [];
  const { before, after } = change;
  if (new Date(before.startsAt).getTime() !== new Date(after.startsAt).getTime())
    lines.push(
      intl.formatMessage(mailMessages.changeNoticeStarts, { before: when(before.startsAt), after: when(after.startsAt) }),
    );
  if (new Date(before.endsAt).getTime() !== new Date(after.endsAt).getTime())
    lines.push(intl.formatMessage(mailMessages.changeNoticeEnds, { before: when(before.endsAt), after: when(after.endsAt) }));
  if (before.venue !== after.venue)
    lines.push(intl.formatMessage(mailMessages.changeNoticeVenue, { before: place(before.venue), after: place(after.venue) }));
  return lines;
}

/** The notice's subject in `locale` (also what the event's admins see in their list of messages). */
export const changeNoticeSubject = (locale: Locale, eventTitle: string) =>
  mailIntl(locale).formatMessage(mailMessages.changeNoticeSubject, { event: shorten(eventTitle, shownMax.title) });

/**
 * Admit's notice that an event's time or place changed, to one ticket holder in their language:
 * what was and what is, and the event's calendar file as it is now, its SEQUENCE risen, so the
 * calendar that took the first file replaces its entry (same UID).
 */
export function composeChangeNotice(content: ChangeNoticeContent): Email {
  const intl = mailIntl(content.locale);
  const event = shorten(content.event.title, shownMax.title);
  const organizer = shorten(content.organizer, shownMax.title);
  const intro = intl.formatMessage(mailMessages.changeNoticeIntro, { organizer, event });
  const url = new URL(`/e/${encodeURIComponent(content.event.slug)}`, content.publicUrl).toString();
  const ics = eventIcs(eventCalendarEntry(content.event, content.publicUrl));
  const element = (
    <EmailFrame
      lang={content.locale}
      preview={intro}
      greeting={intl.formatMessage(mailMessages.greeting, { name: shorten(content.name, shownMax.personName) || 'none' })}
      paragraphs={[intro]}
      action={{ label: intl.formatMessage(mailMessages.attendeeMessageAction), url }}
      buttonFallback={intl.formatMessage(mailMessages.buttonFallback)}
      footer={intl.formatMessage(mailMessages.attendeeMessageFooter, { event, organizer, host: new URL(content.publicUrl).host })}
      width={560}
      logo={content.logo ?? null}
      sender={organizer}
    >
      {changeLines(content.locale, content.change, content.event.timeZone).map((line) => (
        <Text key={line} style={{ ...emailStyles.text, fontWeight: 600 }}>
          {line}
        </Text>
      ))}
      <Text style={emailStyles.small}>{intl.formatMessage(mailMessages.changeNoticeCalendar)}</Text>
    </EmailFrame>
  );
  return {
    to: content.to,
    subject: changeNoticeSubject(content.locale, content.event.title),
    ...renderEmailParts(element),
    attachments: [
      {
        filename: `${content.event.slug}.ics`,
        content: Buffer.from(ics),
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      },
    ],
  };
}
