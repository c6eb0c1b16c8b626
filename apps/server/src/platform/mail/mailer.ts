import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database';
import { outboxMessage, sentEmail, type StoredAttachment } from './schema';

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

export interface SendOptions {
  /**
   * Sends the email once for this key, however often it is asked (a job tried again after a crash).
   * Without a key every call sends.
   */
  idempotencyKey?: string;
}

export interface Mailer {
  /** True when this call sent the email; false when its key had been sent already. */
  send(email: Email, options?: SendOptions): Promise<boolean>;
}

const stored = (attachment: EmailAttachment): StoredAttachment => ({
  filename: attachment.filename,
  contentType: attachment.contentType,
  cid: attachment.cid ?? null,
  contentBase64: attachment.content.toString('base64'),
});

/** Sends through SMTP when `SMTP_URL` is set; otherwise keeps the email in the dev outbox table. */
export function createMailer(options: { db: Db; smtpUrl?: string; from: string }): Mailer {
  const { db } = options;
  const alreadySent = async (key: string) =>
    (await db.select({ key: sentEmail.key }).from(sentEmail).where(eq(sentEmail.key, key))).length > 0;

  if (options.smtpUrl) {
    // Connections stay open for the next emails (a rush sends thousands one after another; the URL's
    // own `pool` or `maxConnections` still win), and text and HTML go in base64, which Node encodes
    // natively, where quoted-printable costs about a millisecond an email in JavaScript (decision 0068).
    const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true });
    return {
      async send(email, { idempotencyKey } = {}) {
        if (idempotencyKey && (await alreadySent(idempotencyKey))) return false;
        // Nodemailer's attachment fields have the same names; a `cid` makes a part inline.
        await transport.sendMail({
          from: options.from,
          textEncoding: 'base64',
          ...email,
          ...(idempotencyKey ? { messageId: `<${createHash('sha256').update(idempotencyKey).digest('hex')}@admit>` } : {}),
        });
        if (idempotencyKey) await db.insert(sentEmail).values({ key: idempotencyKey, to: email.to }).onConflictDoNothing();
        return true;
      },
    };
  }
  return {
    async send({ attachments = [], ...email }, { idempotencyKey } = {}) {
      const message = { id: randomUUID(), channel: 'email' as const, ...email, attachments: attachments.map(stored) };
      if (!idempotencyKey) {
        await db.insert(outboxMessage).values(message);
        return true;
      }
      // The key and the message in one transaction: stored once, whoever asks again.
      return db.transaction(async (tx) => {
        const claimed = await tx
          .insert(sentEmail)
          .values({ key: idempotencyKey, to: email.to })
          .onConflictDoNothing()
          .returning({ key: sentEmail.key });
        if (claimed.length === 0) return false;
        await tx.insert(outboxMessage).values(message);
        return true;
      });
    },
  };
}
