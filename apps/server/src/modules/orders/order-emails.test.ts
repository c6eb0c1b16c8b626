import { createOrder } from '@admit/shared/orders';
import { setAccountLanguage } from '@admit/shared/account';
import { directionOf, locales } from '@admit/shared/locales';
import { applePassPath, googleWalletPath } from '@admit/shared/tickets';
import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailIntl } from '../../platform/mail/compose';
import frMail from '../../platform/mail/locales/fr.json';
import { mailMessages } from '../../platform/mail/messages';
import { outboxMessage } from '../../platform/mail/schema';
import { pdfPagesText } from '../../testing/pdf-text';
import { orderEmailTestApp } from '../../testing/order-email-fixtures';
import { testAuthSecret, type TestApp } from '../../testing/test-app';
import { sendOrderConfirmation, type OrderEmailDeps } from './order-emails';
import { order, orderActivity } from './schema';
import { ticket } from '../tickets/schema';
import { ticketAccessToken } from '../tickets/tickets.api';

const fixtures = orderEmailTestApp();
const { expectOk, pricedEvent, paidOrder, pdfOf } = fixtures;
let t: TestApp;
let deps: OrderEmailDeps;
beforeAll(() => ({ t, deps } = fixtures.app));

describe('the confirmation email', () => {
  it('is written in German for a German order, with yen shown without decimals and the time in the event’s zone', async () => {
    const { orderId, buyer } = await paidOrder({ locale: 'de', currency: 'JPY', price: 1500, buyerName: 'Dora Deutsch' });
    expect(await sendOrderConfirmation(deps, orderId)).toBe(true);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.subject).toBe('Ihre Tickets für Jazz night');
    expect(message.html).toContain('<html dir="ltr" lang="de"');
    expect(message.text).toContain('Hallo Dora Deutsch,');
    expect(message.text).toContain('Ihre 2 Tickets für Jazz night finden Sie unten und im angehängten PDF.');
    expect(message.text).toContain('Donnerstag, 10. Januar 2030 um 19:00 MEZ');
    expect(message.text).toContain('Club Blau');
    expect(message.text).toMatch(/2 × Standing zu je 1\.500\s¥/);
    expect(message.text).toMatch(/Gesamt\s+3\.000\s¥/);
    expect(message.text).not.toMatch(/1\.500,00|15,00/);
    expect(message.text).toContain('Meine Tickets http://localhost:3000/tickets');
  });

  it('is written in the language the buyer chose last in the app, over the one they ordered in', async () => {
    const { orderId, buyer, cookie } = await paidOrder({ locale: 'de', buyerName: 'Dora Deutsch' });
    expect((await t.call(setAccountLanguage, { locale: 'fr' }, cookie)).status).toBe(200);
    expect((await t.callWithAnyInput(setAccountLanguage, { locale: 'xx' }, cookie)).status).toBe(400);
    expect(await sendOrderConfirmation(deps, orderId)).toBe(true);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.subject).toBe(frMail['mail.order.subject']!.replace('{event}', 'Jazz night'));
    expect(message.html).toContain('<html dir="ltr" lang="fr"');
  });

  it.each(locales)('is written in %s from its subject to its footer, in the direction of the language', async (locale) => {
    const { orderId, buyer } = await paidOrder({ locale, buyerName: 'Kim Lee' });
    expect(await sendOrderConfirmation(deps, orderId)).toBe(true);

    const message = await t.lastMessageTo(buyer.email);
    const intl = mailIntl(locale);
    expect(message.subject).toBe(intl.formatMessage(mailMessages.orderSubject, { event: 'Jazz night' }));
    expect(message.html).toContain(`<html dir="${directionOf(locale)}" lang="${locale}"`);
    for (const words of [
      intl.formatMessage(mailMessages.greeting, { name: 'Kim Lee' }),
      intl.formatMessage(mailMessages.orderTotal),
      intl.formatMessage(mailMessages.orderTicketsHeading),
      intl.formatMessage(mailMessages.orderTicketHolder, { name: 'Kim Lee' }),
    ])
      expect(message.text, words).toContain(words);
    if (locale !== 'en') expect(message.text).not.toContain('Your tickets');
  });

  it('shows euros with cents in English, each line with its quantity and price, and the total', async () => {
    const { orderId, buyer } = await paidOrder({ locale: 'en', currency: 'EUR', price: 2500, quantity: 3 });
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.subject).toBe('Your tickets for Jazz night');
    expect(message.text).toContain('Thursday, January 10, 2030 at 7:00 PM GMT+1');
    expect(message.text).toContain('3 × Standing at €25.00 each');
    expect(message.text).toMatch(/Total\s+€75\.00/);
    expect(message.html).toContain('href="http://localhost:3000/tickets"');
  });

  it('offers the event for a calendar: its file in the buyer’s language, Google Calendar and Outlook.com', async () => {
    const { orderId, buyer } = await paidOrder({ locale: 'de' });
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    const links = [...(message.html ?? '').matchAll(/href="([^"]+)"/g)].map(([, href]) => href!.replace(/&amp;/g, '&'));
    const file = links.find((href) => href.endsWith('/calendar.ics?lang=de'));
    expect(file).toMatch(/^http:\/\/localhost:3000\/files\/events\/[\w-]+\/calendar\.ics\?lang=de$/);
    // The file the link names is there, with the event in it.
    const response = await t.app.inject({ method: 'GET', url: new URL(file!).pathname + new URL(file!).search });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('SUMMARY:Jazz night');

    const google = new URL(links.find((href) => href.startsWith('https://calendar.google.com/'))!);
    expect(google.searchParams.get('text')).toBe('Jazz night');
    expect(google.searchParams.get('dates')).toBe('20300110T180000Z/20300110T220000Z');
    expect(google.searchParams.get('ctz')).toBe('Europe/Berlin');
    expect(links.some((href) => href.startsWith('https://outlook.live.com/calendar/'))).toBe(true);
    expect(message.text).toContain('Kalender');
  });

  it('carries one inline QR image per ticket and every ticket’s code', async () => {
    const { orderId, buyer, tickets } = await paidOrder({ quantity: 3 });
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    const images = message.attachments.filter((attachment) => attachment.contentType === 'image/png');
    expect(images).toHaveLength(3);
    for (const image of images) {
      expect(image.cid).toMatch(/@admit$/);
      expect(message.html).toContain(`src="cid:${image.cid}"`);
      // A PNG file, not an empty part.
      expect(Buffer.from(image.contentBase64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    expect(message.html).not.toContain('data:image');
    for (const { code } of tickets) {
      expect(message.text).toContain(`Code ${code}`);
      expect(message.html).toContain(`alt="QR code of the ticket ${code}"`);
    }
  });

  it('links each ticket to Apple Wallet and Google Wallet by its own token, which opens its pass without a session', async () => {
    const { orderId, buyer, tickets } = await paidOrder({ quantity: 2 });
    const config = { AUTH_SECRET: testAuthSecret };
    await sendOrderConfirmation({ ...deps, config }, orderId);

    const message = await t.lastMessageTo(buyer.email);
    const inApp = (url: string) => new URL(url).pathname + new URL(url).search;
    for (const one of tickets) {
      const token = ticketAccessToken(config, one.id);
      const apple = new URL(applePassPath(one.id, token), deps.publicUrl).toString();
      const google = new URL(googleWalletPath(one.id, token), deps.publicUrl).toString();
      expect(message.text).toContain(`Add to Apple Wallet ${apple}`);
      expect(message.text).toContain(`Add to Google Wallet ${google}`);

      const pass = await t.app.inject({ method: 'GET', url: inApp(apple) });
      expect(pass.statusCode).toBe(200);
      expect(pass.headers['content-type']).toBe('application/vnd.apple.pkpass');
      expect(pass.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
      const save = await t.app.inject({ method: 'GET', url: inApp(google) });
      expect(save.statusCode).toBe(302);
      expect(save.headers.location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    }
    // A ticket's token opens that ticket only.
    const [first, second] = tickets;
    const crossed = await t.app.inject({ method: 'GET', url: applePassPath(second!.id, ticketAccessToken(config, first!.id)) });
    expect(crossed.statusCode).toBe(404);
  });

  it('attaches a PDF with one page per ticket, each with its code, holder and event', async () => {
    const { orderId, buyer, tickets, slug } = await paidOrder({ quantity: 2, buyerName: 'Bob Buyer' });
    await sendOrderConfirmation(deps, orderId);

    const pdf = pdfOf(await t.lastMessageTo(buyer.email));
    expect(pdf.filename).toBe(`${slug}-tickets.pdf`);
    expect(pdf.cid).toBeNull();
    const pages = await pdfPagesText(pdf.bytes);
    expect(pages).toHaveLength(2);
    // Each page carries exactly one of the order's codes, and together they carry all of them.
    const codesOnPages = pages.map((page) => tickets.filter(({ code }) => page.includes(code)).map(({ code }) => code));
    expect(codesOnPages.every((codes) => codes.length === 1)).toBe(true);
    expect(codesOnPages.flat().sort()).toEqual(tickets.map(({ code }) => code).sort());
    pages.forEach((page, index) => {
      expect(page).toContain('For Bob Buyer');
      expect(page).toContain('Jazz night');
      expect(page).toContain('Club Blau');
      expect(page).toContain('Standing');
      expect(page).toContain(`Ticket ${index + 1} of 2`);
    });
  });

  it('names the organizer at the top of the email and of each PDF page, where Admit’s wordmark was', async () => {
    const { orderId, buyer } = await paidOrder({ quantity: 2 });
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.html).toMatch(/<h1[^>]*>Night Owls<\/h1>/);
    expect(message.html).not.toMatch(/<h1[^>]*>Admit<\/h1>/);
    for (const page of await pdfPagesText(pdfOf(message).bytes)) {
      expect(page.trimStart().startsWith('Night Owls')).toBe(true);
      expect(page).not.toContain('Admit');
    }
  });

  it('leaves void tickets out of the email and the PDF', async () => {
    const { orderId, buyer, tickets } = await paidOrder({ quantity: 3 });
    await t.db.update(ticket).set({ status: 'void' }).where(eq(ticket.id, tickets[1]!.id));
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.attachments.filter((attachment) => attachment.contentType === 'image/png')).toHaveLength(2);
    expect(message.text).not.toContain(tickets[1]!.code);
    const pages = await pdfPagesText(pdfOf(message).bytes);
    expect(pages).toHaveLength(2);
    expect(pages.join('\n')).not.toContain(tickets[1]!.code);
  });

  it('escapes what the buyer typed, such as their name', async () => {
    const { orderId, buyer } = await paidOrder({ buyerName: '<b>Bold</b> & Co' });
    await sendOrderConfirmation(deps, orderId);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.html).not.toContain('<b>Bold</b>');
    expect(message.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; Co');
  });

  it("adds a line to the order's timeline once it is sent", async () => {
    const { orderId, buyer } = await paidOrder();
    await sendOrderConfirmation(deps, orderId);

    const lines = await t.db
      .select()
      .from(orderActivity)
      .where(and(eq(orderActivity.orderId, orderId), eq(orderActivity.kind, 'email_sent')));
    expect(lines.at(-1)!.detail).toEqual({ kind: 'confirmation', to: buyer.email });
  });

  it('writes its timeline line once, also when the try that sent it stopped before writing the line', async () => {
    const { orderId, buyer } = await paidOrder({ keepWorkersConfirmation: true });
    const sentLines = () =>
      t.db
        .select()
        .from(orderActivity)
        .where(and(eq(orderActivity.orderId, orderId), eq(orderActivity.kind, 'email_sent')));
    expect(await sentLines()).toHaveLength(1);
    // What a worker killed between the send and the line leaves: the email sent, no line.
    await t.db.delete(orderActivity).where(and(eq(orderActivity.orderId, orderId), eq(orderActivity.kind, 'email_sent')));

    // The job tried again sends nothing, and writes the line; a third try writes nothing more.
    expect(await sendOrderConfirmation(deps, orderId)).toBe(false);
    expect(await sendOrderConfirmation(deps, orderId)).toBe(false);
    expect((await sentLines()).map((line) => line.detail)).toEqual([{ kind: 'confirmation', to: buyer.email }]);
    const confirmations = await t.db
      .select({ subject: outboxMessage.subject })
      .from(outboxMessage)
      .where(and(eq(outboxMessage.to, buyer.email), like(outboxMessage.subject, 'Your tickets%')));
    expect(confirmations).toHaveLength(1);
  });

  it('is not sent for an order that is not paid', async () => {
    const { eventId, ticketTypeId } = await pricedEvent();
    const buyer = await t.signUp();
    const { orderId } = await expectOk(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, buyer.cookie);
    await expect(sendOrderConfirmation(deps, orderId)).rejects.toThrow(/pending/);
    await expect(t.lastMessageTo(buyer.email)).resolves.toMatchObject({ subject: 'Verify your email for Admit' });
  });

  it('is not sent to the address a phone sign-up stands in with, which receives no mail', async () => {
    const { orderId } = await paidOrder();
    await t.db.update(order).set({ email: 'phone-491510000123@phone.admit.invalid' }).where(eq(order.id, orderId));
    expect(await sendOrderConfirmation(deps, orderId)).toBe(false);
    await expect(t.lastMessageTo('phone-491510000123@phone.admit.invalid')).rejects.toThrow(/no email/);
  });
});
