import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import { outboxMessage } from '../mail/schema';

export interface TextMessage {
  /** E.164, e.g. +4915123456789. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: TextMessage): Promise<void>;
}

export interface SmsGateway {
  /** The gateway's Messages endpoint, e.g. https://api.twilio.com/2010-04-01/Accounts/<sid>/Messages.json. */
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
}

/**
 * Sends through a Twilio-compatible HTTP gateway (form POST with To, From, Body and Basic auth)
 * when one is configured; otherwise keeps the message in the dev outbox table with channel 'sms'.
 */
export function createSmsSender(options: { db: Db; gateway?: SmsGateway; fetch?: typeof fetch }): SmsSender {
  const { gateway } = options;
  if (gateway) {
    const post = options.fetch ?? fetch;
    const authorization = `Basic ${Buffer.from(`${gateway.accountSid}:${gateway.authToken}`).toString('base64')}`;
    return {
      async send(message) {
        const response = await post(gateway.url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: message.to, From: gateway.from, Body: message.text }),
          signal: AbortSignal.timeout(10_000),
        });
        // The body may echo the number and text; the status is enough to find the fault.
        if (!response.ok) throw new Error(`SMS gateway answered ${response.status} ${response.statusText}`);
      },
    };
  }
  return {
    async send(message) {
      await options.db.insert(outboxMessage).values({ id: randomUUID(), channel: 'sms', to: message.to, text: message.text });
    },
  };
}
