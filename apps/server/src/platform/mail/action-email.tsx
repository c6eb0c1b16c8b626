import { EmailFrame } from './email-frame';

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

/** One email layout for every "open this link" message: verification, reset, sign-in link, invitation. */
export function ActionEmail({ note, ...props }: ActionEmailProps) {
  return <EmailFrame {...props} width={520} afterAction={note} />;
}
