import type { Page } from 'playwright-core';

/** A message in the dev outbox, as `/dev/outbox.json` lists it (newest first). */
export interface OutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string }[];
}

/** What the server "sent", read through the page's own connection to it. */
export async function readOutbox(page: Page): Promise<OutboxMessage[]> {
  const response = await page.request.get('/dev/outbox.json');
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** What `find` picks out of the outbox, waiting a little for it: messages go out after the answer that causes them. */
async function waitForOutbox(page: Page, find: (messages: OutboxMessage[]) => string | undefined, what: string) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const found = find(await readOutbox(page));
    if (found) return found;
    await page.waitForTimeout(100);
  }
  throw new Error(`No ${what} in the outbox`);
}

/** The newest link in the dev outbox sent to `email`. */
export function linkFromOutbox(page: Page, email: string): Promise<string> {
  return waitForOutbox(
    page,
    (messages) => messages.find((message) => message.to === email)?.text.match(/https?:\/\/\S+/)?.[0],
    `email for ${email}`,
  );
}

/** The newest 6-digit code texted to `phone`, from the dev outbox. */
export function codeFromOutbox(page: Page, phone: string): Promise<string> {
  return waitForOutbox(
    page,
    (messages) => messages.find((message) => message.channel === 'sms' && message.to === phone)?.text.match(/\b\d{6}\b/)?.[0],
    `text message for ${phone}`,
  );
}
