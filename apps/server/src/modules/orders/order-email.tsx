import { directionOf, isLocale } from '@admit/shared/locales';
import { Column } from '@react-email/column';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { Fragment } from 'react';
import { EmailFrame, emailStyles, type EmailImage } from '../../platform/mail/email-frame';

export interface OrderSummaryProps {
  reference: string;
  eventTitle: string;
  whenLabel: string;
  when: string;
  whereLabel: string;
  venue: string;
  /** "Add to calendar" and where: a calendar file, Google Calendar, Outlook.com. */
  calendar?: { label: string; links: { label: string; url: string }[] };
  /** Each line's words ("2 × Standing at €25.00 each") and its amount. */
  lines: { label: string; amount: string }[];
  totalLabel: string;
  total: string;
}

export interface TicketCardProps {
  /** The `cid:` address of the ticket's QR image, attached to the same email. */
  qrSrc: string;
  qrAlt: string;
  ticketType: string;
  holder: string;
  code: string;
  /** "Add to Apple Wallet", "Add to Google Wallet": the ticket's passes, by links that open without a session. */
  wallets?: { label: string; url: string }[];
}

export interface OrderEmailProps {
  lang: string;
  preview: string;
  greeting: string;
  paragraphs: string[];
  summary?: OrderSummaryProps;
  tickets?: { heading: string; items: TicketCardProps[] };
  /** Smaller print after the tickets (how to use them, when the money arrives). */
  notes: string[];
  action: { label: string; url: string };
  buttonFallback: string;
  footer: string;
  banner?: EmailImage | null;
  logo?: EmailImage | null;
  /** The organization whose event it is, named at the top. */
  sender?: string | null;
}

const styles = {
  ...emailStyles,
  eventTitle: { color: '#212529', fontSize: 20, fontWeight: 700, lineHeight: '28px', margin: '0 0 8px' },
  label: { color: '#868e96', fontSize: 13, lineHeight: '20px', margin: 0, width: 72, verticalAlign: 'top' as const },
  value: { color: '#212529', fontSize: 15, lineHeight: '22px', margin: '0 0 6px' },
  line: { color: '#212529', fontSize: 15, lineHeight: '22px', margin: '4px 0' },
  amount: { color: '#212529', fontSize: 15, lineHeight: '22px', margin: '4px 0' },
  total: { color: '#212529', fontSize: 16, fontWeight: 700, lineHeight: '24px', margin: '4px 0' },
  heading: { color: '#212529', fontSize: 18, fontWeight: 700, margin: '24px 0 8px' },
  ticket: { border: '1px solid #dee2e6', borderRadius: 8, margin: '12px 0', padding: '16px', textAlign: 'center' as const },
  ticketType: { color: '#212529', fontSize: 16, fontWeight: 700, lineHeight: '24px', margin: '0 0 4px' },
  code: {
    color: '#495057',
    fontFamily: 'Menlo, Consolas, monospace',
    fontSize: 13,
    margin: '8px 0 0',
    wordBreak: 'break-all' as const,
  },
  rule: { borderColor: '#e9ecef', margin: '16px 0' },
  link: { ...emailStyles.link, wordBreak: 'normal' as const },
};

/**
 * Amounts line up at the end of the line: the right in English, the left in Arabic (spelled out,
 * as mail apps do not all know `text-align: end`).
 */
function OrderSummary({ end, ...props }: OrderSummaryProps & { end: 'left' | 'right' }) {
  return (
    <Section>
      <Text style={styles.small}>{props.reference}</Text>
      <Text style={styles.eventTitle}>{props.eventTitle}</Text>
      <Row>
        <Column style={styles.label}>{props.whenLabel}</Column>
        <Column>
          <Text style={styles.value}>{props.when}</Text>
        </Column>
      </Row>
      <Row>
        <Column style={styles.label}>{props.whereLabel}</Column>
        <Column>
          <Text style={styles.value}>{props.venue}</Text>
        </Column>
      </Row>
      {props.calendar && (
        <Row>
          <Column style={styles.label}>{props.calendar.label}</Column>
          <Column>
            <Text style={styles.value}>
              {props.calendar.links.map((link, index) => (
                <Fragment key={link.url}>
                  {index > 0 && ' · '}
                  <Link href={link.url} style={styles.link}>
                    {link.label}
                  </Link>
                </Fragment>
              ))}
            </Text>
          </Column>
        </Row>
      )}
      <Hr style={styles.rule} />
      {props.lines.map((line, index) => (
        <Row key={index}>
          <Column>
            <Text style={styles.line}>{line.label}</Text>
          </Column>
          <Column>
            <Text style={{ ...styles.amount, textAlign: end }}>{line.amount}</Text>
          </Column>
        </Row>
      ))}
      <Hr style={styles.rule} />
      <Row>
        <Column>
          <Text style={styles.total}>{props.totalLabel}</Text>
        </Column>
        <Column>
          <Text style={{ ...styles.total, textAlign: end }}>{props.total}</Text>
        </Column>
      </Row>
    </Section>
  );
}

function TicketCard(props: TicketCardProps) {
  return (
    <Section style={styles.ticket}>
      <Text style={styles.ticketType}>{props.ticketType}</Text>
      <Text style={{ ...styles.value, margin: '0 0 12px' }}>{props.holder}</Text>
      <Img src={props.qrSrc} alt={props.qrAlt} width={180} height={180} style={{ margin: '0 auto' }} />
      <Text style={styles.code}>{props.code}</Text>
      {props.wallets && (
        <Text style={{ ...styles.value, margin: '12px 0 0' }}>
          {props.wallets.map((wallet, index) => (
            <Fragment key={wallet.url}>
              {index > 0 && ' · '}
              <Link href={wallet.url} style={styles.link}>
                {wallet.label}
              </Link>
            </Fragment>
          ))}
        </Text>
      )}
    </Section>
  );
}

/** The layout of the emails about an order: its confirmation with the tickets, and its refunds. */
export function OrderEmail({ summary, tickets, notes, ...frame }: OrderEmailProps) {
  return (
    <EmailFrame {...frame} width={560}>
      {summary && (
        <OrderSummary {...summary} end={isLocale(frame.lang) && directionOf(frame.lang) === 'rtl' ? 'left' : 'right'} />
      )}
      {tickets && (
        <Section>
          <Heading as="h2" style={styles.heading}>
            {tickets.heading}
          </Heading>
          {tickets.items.map((item) => (
            <TicketCard key={item.code} {...item} />
          ))}
        </Section>
      )}
      {notes.map((note) => (
        <Text key={note} style={styles.small}>
          {note}
        </Text>
      ))}
    </EmailFrame>
  );
}
