import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { catalogText } from './support/catalog';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

const shots = process.env.SCREENSHOT_DIR ?? '/tmp/shots';
const german = catalogText('de');

/** Waits for the page's transitions (a dialog fading in) to end, so a screenshot shows what a person sees. */
const settled = (page: Page) =>
  page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null))));

describe('an organizer writes to everyone holding a ticket, and a buyer who uses the app in German reads it in German', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let greta: Page;
  let bruno: Page;
  let eventId = '';
  let gretasOrder = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    greta = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    bruno = await journey.newPage();
  });

  it('sets up an event, a buyer whose app is in German with one ticket, and one with two tickets', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    // Making the event is other screens' work: it is made through the callables they use.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId } = await callAs(organizer)<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Late Jazz at the Harbour',
      venue: 'Harbour Hall, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    const { ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 50,
      maxPerOrder: 4,
      price: 0,
    });
    await callAs(organizer)('events.publish', { eventId });

    await signUpAndVerify(greta, { name: 'Greta Gast', email: 'greta@example.test' });
    ({ orderId: gretasOrder } = await callAs(greta)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 1 }],
    }));
    // She switches the app to German: her account keeps it (what Admit writes to her later is in it).
    await greta.goto('/tickets');
    await greta.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await greta.getByRole('heading', { name: german('myTickets.title'), level: 1 }).waitFor();
    await expect.poll(() => greta.evaluate(() => localStorage.getItem('admit.languageSaved'))).toMatch(/:de$/);

    await signUpAndVerify(bruno, { name: 'Bruno Buyer', email: 'bruno@example.test' });
    await callAs(bruno)('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 2 }] });
  });

  it('writes a message from the event’s page, checks the email it becomes, and sends it to both buyers', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz at the Harbour', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Message attendees' }).click();
    await organizer.getByRole('heading', { name: /Messages to attendees/, level: 1 }).waitFor();
    await organizer.getByText('No messages yet').waitFor();

    // Nothing written: the form says what is missing, and nothing is previewed.
    await organizer.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => organizer.getByText('This field is required.').count()).toBe(2);

    await organizer.getByRole('textbox', { name: 'Subject' }).fill('Doors open at 19:30');
    await organizer
      .getByRole('textbox', { name: 'Message' })
      .fill('Good news: the doors open half an hour earlier.\n\nThe bar serves food until 21:00.');
    await organizer.screenshot({ path: `${shots}/messages-new-1280.png`, fullPage: true });
    await organizer.getByRole('button', { name: 'Preview' }).click();

    const dialog = organizer.getByRole('dialog', { name: 'Check before sending' });
    await dialog.getByText('Goes to 2 people.').waitFor();
    const email = dialog.frameLocator('iframe[title="The email as you would get it"]');
    await email.getByText('Hello Olivia Organizer,').waitFor();
    await email.getByText('Harbour Nights wrote to the ticket holders of Late Jazz at the Harbour', { exact: false }).waitFor();
    await email.getByText('The bar serves food until 21:00.').waitFor();
    await settled(organizer);
    await organizer.screenshot({ path: `${shots}/messages-preview-1280.png` });
    await dialog.getByRole('button', { name: 'Send to 2 people' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The message's sending, live: done once both have their email.
    const sent = organizer.getByRole('article', { name: 'Doors open at 19:30' });
    await sent.getByTestId('message-progress').getByText('2 of 2 emails sent').waitFor();
    await sent.getByText('Sent', { exact: true }).waitFor();
    await expect(organizer.getByRole('textbox', { name: 'Subject' }).inputValue()).resolves.toBe('');

    await sent.getByRole('button', { name: 'Who got it: Doors open at 19:30' }).click();
    const record = organizer.getByRole('dialog', { name: 'Who got “Doors open at 19:30”' });
    const gretasRow = record.getByRole('row', { name: /Greta Gast/ });
    await gretasRow.getByText('Deutsch').waitFor();
    await gretasRow.getByText(/^Sent /).waitFor();
    await record
      .getByRole('row', { name: /Bruno Buyer/ })
      .getByText('English')
      .waitFor();
    await settled(organizer);
    await organizer.screenshot({ path: `${shots}/messages-recipients-1280.png` });
    await organizer.keyboard.press('Escape');
    await record.waitFor({ state: 'hidden' });

    await organizer.setViewportSize({ width: 390, height: 844 });
    await organizer.screenshot({ path: `${shots}/messages-390.png`, fullPage: true });
    await organizer.setViewportSize({ width: 1280, height: 900 });
  });

  it('has sent each buyer one email, Greta’s in German, Bruno’s in English', async () => {
    const messages = (await readOutbox(organizer)).filter((message) => message.subject === 'Doors open at 19:30');
    expect(messages.map((message) => message.to).sort()).toEqual(['bruno@example.test', 'greta@example.test']);
    const toGreta = messages.find((message) => message.to === 'greta@example.test')!;
    expect(toGreta.text).toContain('Hallo Greta Gast,');
    expect(toGreta.text).toContain('Harbour Nights hat den Ticketinhabern von Late Jazz at the Harbour');
    expect(toGreta.text).toContain('Good news: the doors open half an hour earlier.');
    const toBruno = messages.find((message) => message.to === 'bruno@example.test')!;
    expect(toBruno.text).toContain('Harbour Nights wrote to the ticket holders of Late Jazz at the Harbour');
  });

  it('shows Greta the message on her order’s page, in her language', async () => {
    await greta.setViewportSize({ width: 390, height: 844 });
    await greta.goto(`/orders/${gretasOrder}`);
    const section = greta.getByRole('region', { name: german('orderMessages.title') });
    const message = section.getByRole('article', { name: 'Doors open at 19:30' });
    await message.getByText('The bar serves food until 21:00.').waitFor();
    await message.getByText(/Harbour Nights/).waitFor();
    await greta.screenshot({ path: `${shots}/order-messages-390.png`, fullPage: true });
    await greta.setViewportSize({ width: 1280, height: 900 });
    await greta.screenshot({ path: `${shots}/order-messages-1280.png`, fullPage: true });
  });
});
