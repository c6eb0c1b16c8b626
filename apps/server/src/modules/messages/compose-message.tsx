import type { Locale } from '@admit/shared/locales';
import { Text } from '@react-email/text';
import { mailIntl, renderEmailParts } from '../../platform/mail/compose';
import { EmailFrame, emailStyles, type EmailImage } from '../../platform/mail/email-frame';
import { formatEventStart } from '../../platform/mail/formats';
import type { Email } from '../../platform/mail/mailer';
import { mailMessages } from '../../platform/mail/messages';
import { shorten, shownMax } from '../../platform/mail/shown-text';

export interface AttendeeMessageContent {
  to: string;
  locale: Locale;
  /** The holder's name as the ticket has it. */
  name: string;
  subject: string;
  /** The admin's text, as written: its paragraphs are kept, its line breaks too. */
  body: string;
  organizer: string;
  /** The event as the person reads it (its title in their language where the event has one). */
  event: { title: string; slug: string; startsAt: Date; timeZone: string };
  publicUrl: string;
  logo?: EmailImage | null;
}

const bodyStyle = { ...emailStyles.text, whiteSpace: 'pre-line' as const };

/**
 * A message from an event's organizer to one ticket holder: who wrote and about which event in the
 * person's language, then the organizer's words as they wrote them, and a link to the event.
 */
export function composeAttendeeMessage(content: AttendeeMessageContent): Email {
  const intl = mailIntl(content.locale);
  const event = shorten(content.event.title, shownMax.title);
  const organizer = shorten(content.organizer, shownMax.title);
  const when = formatEventStart(content.locale, content.event.startsAt, content.event.timeZone);
  const paragraphs = content.body
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const url = new URL(`/e/${encodeURIComponent(content.event.slug)}`, content.publicUrl).toString();
  const element = (
    <EmailFrame
      lang={content.locale}
      preview={paragraphs[0] ?? content.subject}
      greeting={intl.formatMessage(mailMessages.greeting, { name: shorten(content.name, shownMax.personName) || 'none' })}
      paragraphs={[intl.formatMessage(mailMessages.attendeeMessageIntro, { organizer, event, when })]}
      action={{ label: intl.formatMessage(mailMessages.attendeeMessageAction), url }}
      buttonFallback={intl.formatMessage(mailMessages.buttonFallback)}
      footer={intl.formatMessage(mailMessages.attendeeMessageFooter, { event, organizer, host: new URL(content.publicUrl).host })}
      width={560}
      logo={content.logo ?? null}
      sender={organizer}
    >
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={bodyStyle}>
          {paragraph}
        </Text>
      ))}
    </EmailFrame>
  );
  return { to: content.to, subject: content.subject, ...renderEmailParts(element) };
}
