import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';

export interface ActionEmailProps {
  lang: string;
  /** The line mail apps show next to the subject. */
  preview: string;
  greeting: string;
  /** What happened and what the button does, one paragraph each. */
  paragraphs: string[];
  action: { label: string; url: string };
  buttonFallback: string;
  /** How long the link works and what to do if the email was not expected. */
  note: string;
  footer: string;
}

const brand = '#1c7ed6';
const styles = {
  body: { backgroundColor: '#f1f3f5', fontFamily: '-apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif', margin: 0 },
  container: { backgroundColor: '#ffffff', borderRadius: 8, margin: '32px auto', maxWidth: 520, padding: '32px 28px' },
  wordmark: { color: brand, fontSize: 22, fontWeight: 700, letterSpacing: '-0.5px', margin: '0 0 24px' },
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

/** One email layout for every "open this link" message: verification, reset, sign-in link, invitation. */
export function ActionEmail(props: ActionEmailProps) {
  return (
    <Html lang={props.lang}>
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Heading as="h1" style={styles.wordmark}>
            Admit
          </Heading>
          <Text style={styles.text}>{props.greeting}</Text>
          {props.paragraphs.map((paragraph) => (
            <Text key={paragraph} style={styles.text}>
              {paragraph}
            </Text>
          ))}
          <Section style={{ margin: '24px 0' }}>
            <Button href={props.action.url} style={styles.button}>
              {props.action.label}
            </Button>
          </Section>
          <Text style={styles.small}>{props.note}</Text>
          {/* The plain-text part has the link right after the button's words already. */}
          <Text style={styles.small} data-skip-in-text>
            {props.buttonFallback}{' '}
            <Link href={props.action.url} style={styles.link}>
              {props.action.url}
            </Link>
          </Text>
          <Hr style={{ borderColor: '#e9ecef', margin: '24px 0 16px' }} />
          <Text style={styles.footer}>{props.footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}
