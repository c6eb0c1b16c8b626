import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database';
import { outboxMessage, type StoredAttachment } from './schema';

export interface EmailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /**
   * Makes the attachment an inline part that the HTML shows with `<img src="cid:…">`. Mail apps
   * block data: URIs in images (Gmail, Outlook), but show inline parts.
   */
  cid?: string;
}

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: EmailAttachment[];
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

const stored = (attachment: EmailAttachment): StoredAttachment => ({
  filename: attachment.filename,
  contentType: attachment.contentType,
  cid: attachment.cid ?? null,
  contentBase64: attachment.content.toString('base64'),
});

/** Sends through SMTP when `SMTP_URL` is set; otherwise keeps the email in the dev outbox table. */
export function createMailer(options: { db: Db; smtpUrl?: string; from: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(email) {
        // Nodemailer's attachment fields have the same names; a `cid` makes a part inline.
        await transport.sendMail({ from: options.from, ...email });
      },
    };
  }
  return {
    async send({ attachments = [], ...email }) {
      await options.db
        .insert(outboxMessage)
        .values({ id: randomUUID(), channel: 'email', ...email, attachments: attachments.map(stored) });
    },
  };
}
