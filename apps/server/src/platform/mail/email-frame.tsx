import { directionOf, isLocale } from '@admit/shared/locales';
import type { ReactNode } from 'react';
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Column } from '@react-email/column';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';

const brand = '#1c7ed6';

const latinFonts = '-apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
/**
 * The fonts an email asks for, by language: mail apps take no web fonts, so Japanese and Arabic
 * name the fonts the readers' phones and computers have for them (Apple's, Windows', Android's Noto).
 */
const fontsByLanguage: Record<string, string> = {
  ja: `"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic", Meiryo, "Noto Sans JP", "Noto Sans CJK JP", ${latinFonts}`,
  ar: `"Geeza Pro", "Segoe UI", Tahoma, "Noto Sans Arabic", ${latinFonts}`,
};

/** The styles every Admit email shares (inline: mail apps drop style sheets). */
export const emailStyles = {
  body: { backgroundColor: '#f1f3f5', fontFamily: latinFonts, margin: 0 },
  container: { backgroundColor: '#ffffff', borderRadius: 8, margin: '32px auto', padding: '32px 28px' },
  wordmark: { color: brand, fontSize: 22, fontWeight: 700, letterSpacing: '-0.5px', margin: 0 },
  /** An organization's name in the wordmark's place: its own words, in the text's colour. */
  sender: { color: '#212529', fontSize: 20, fontWeight: 700, lineHeight: '28px', margin: 0 },
  text: { color: '#212529', fontSize: 16, lineHeight: '24px', margin: '0 0 16px' },
  button: {
    backgroundColor: brand,
    borderRadius: 6,
    color: '#ffffff',
    display: 'inline-block',
    fontSize: 16,
    fontWeight: 600,
    padding: '12px 20px',
    textDecoration: 'none',
  },
  small: { color: '#495057', fontSize: 13, lineHeight: '20px', margin: '0 0 12px' },
  link: { color: brand, wordBreak: 'break-all' as const },
  footer: { color: '#868e96', fontSize: 12, lineHeight: '18px', margin: 0 },
};

export interface EmailFrameProps {
  lang: string;
  /** The line mail apps show next to the subject. */
  preview: string;
  greeting: string;
  /** What happened, one paragraph each. */
  paragraphs: string[];
  action: { label: string; url: string };
  /** "If the button does not work, open this address:", before the address itself. */
  buttonFallback: string;
  footer: string;
  /** The content's width in pixels. */
  width: number;
  /** Between the paragraphs and the button (an order's summary and tickets). */
  children?: ReactNode;
  /** Small print right after the button (how long a link works). */
  afterAction?: string;
  /** A picture across the top (an event's cover), by absolute URL. */
  banner?: EmailImage | null;
  /** The sender's logo (an organization's), beside its name. */
  logo?: EmailImage | null;
  /**
   * Who writes: the organization an email about its event comes from, named at the top beside its
   * logo. Without it (the account's own emails) the top says Admit.
   */
  sender?: string | null;
}

/** An image an email shows by absolute URL (mail apps fetch it; none is attached). */
export interface EmailImage {
  src: string;
  width: number;
  height: number;
}

/** What every Admit email is made of: the wordmark, a greeting, paragraphs, one button, the footer. */
export function EmailFrame(props: EmailFrameProps) {
  // Arabic reads right to left: said on <html> and again on the content's table, as some mail
  // apps drop the attributes of <html>.
  const dir = isLocale(props.lang) ? directionOf(props.lang) : 'ltr';
  return (
    <Html lang={props.lang} dir={dir}>
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ ...emailStyles.body, fontFamily: fontsByLanguage[props.lang] ?? latinFonts }}>
        <Container
          dir={dir}
          style={{ ...emailStyles.container, maxWidth: props.width, textAlign: dir === 'rtl' ? 'right' : 'left' }}
        >
          <Section style={{ margin: '0 0 24px' }}>
            <Row>
              {props.logo && (
                <Column style={{ width: 52, verticalAlign: 'middle' }}>
                  <Img src={props.logo.src} alt="" width={40} height={40} style={{ borderRadius: 6 }} />
                </Column>
              )}
              <Column style={{ verticalAlign: 'middle' }}>
                <Heading as="h1" style={props.sender ? emailStyles.sender : emailStyles.wordmark}>
                  {props.sender || 'Admit'}
                </Heading>
              </Column>
            </Row>
          </Section>
          {props.banner && (
            <Img
              src={props.banner.src}
              alt=""
              width={props.width - 56}
              height={Math.round(((props.width - 56) * props.banner.height) / props.banner.width)}
              style={{ borderRadius: 6, margin: '0 0 20px', maxWidth: '100%', height: 'auto' }}
            />
          )}
          <Text style={emailStyles.text}>{props.greeting}</Text>
          {props.paragraphs.map((paragraph) => (
            <Text key={paragraph} style={emailStyles.text}>
              {paragraph}
            </Text>
          ))}
          {props.children}
          <Section style={{ margin: '24px 0' }}>
            <Button href={props.action.url} style={emailStyles.button}>
              {props.action.label}
            </Button>
          </Section>
          {props.afterAction && <Text style={emailStyles.small}>{props.afterAction}</Text>}
          {/* The plain-text part has the link right after the button's words already. */}
          <Text style={emailStyles.small} data-skip-in-text>
            {props.buttonFallback}{' '}
            <Link href={props.action.url} style={emailStyles.link}>
              {props.action.url}
            </Link>
          </Text>
          <Hr style={{ borderColor: '#e9ecef', margin: '24px 0 16px' }} />
          <Text style={emailStyles.footer}>{props.footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}
