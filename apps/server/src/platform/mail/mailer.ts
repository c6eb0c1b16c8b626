import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database';
import { outboxMessage } from './schema';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/** Sends through SMTP when `SMTP_URL` is set; otherwise keeps the email in the dev outbox table. */
export function createMailer(options: { db: Db; smtpUrl?: string; from: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(email) {
        await transport.sendMail({ from: options.from, ...email });
      },
    };
  }
  return {
    async send(email) {
      await options.db.insert(outboxMessage).values({ id: randomUUID(), channel: 'email', ...email });
    },
  };
}
