import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
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

describe('an organizer moves an event to another venue and tells its ticket holder, who reads it on her order', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let greta: Page;
  let eventId = '';
  let gretasOrder = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    greta = await journey.newPage({ viewport: { width: 1280, height: 900 } });
  });

  it('sets up an event with one buyer, whose app is in German', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    // Making the event and the order is other screens' work: done through the callables they use.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId } = await callAs(organizer)<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Late Jazz',
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
      lines: [{ ticketTypeId, quantity: 2 }],
    }));
    await greta.goto('/tickets');
    await greta.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await greta.getByRole('heading', { name: german('myTickets.title'), level: 1 }).waitFor();
    await expect.poll(() => greta.evaluate(() => localStorage.getItem('admit.languageSaved'))).toMatch(/:de$/);
  });

  it('changes the venue, and chooses to email the ticket holder about it', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Edit details' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Edit the event' });
    await dialog.getByRole('textbox', { name: 'Venue' }).fill('Pier 3, Hamburg');
    await dialog.getByRole('button', { name: 'Save changes' }).click();

    await dialog.getByText('1 person holds tickets for this event', { exact: false }).waitFor();
    await settled(organizer);
    expect(await accessibilityViolations(organizer)).toEqual([]);
    await organizer.screenshot({ path: `${shots}/change-notice-offer-1280.png` });
    await organizer.setViewportSize({ width: 390, height: 844 });
    await organizer.screenshot({ path: `${shots}/change-notice-offer-390.png` });
    await organizer.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Email the ticket holder about this change' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await organizer.getByText('Sending the notice to 1 person.').waitFor();
  });

  it('has sent Greta one email in German, with the old and new venue and the calendar file', async () => {
    await expect
      .poll(
        async () =>
          (await readOutbox(organizer)).filter(
            (message) => message.to === 'greta@example.test' && message.subject.startsWith('Late Jazz:'),
          ).length,
      )
      .toBe(1);
    const notice = (await readOutbox(organizer)).find((message) => message.subject.startsWith('Late Jazz:'))!;
    expect(notice.subject).toBe('Late Jazz: Zeit oder Ort hat sich geändert');
    expect(notice.text).toContain('Ort: Pier 3, Hamburg (bisher Harbour Hall, Hamburg)');
    expect(notice.attachments.map((attachment) => attachment.filename)).toEqual([expect.stringMatching(/\.ics$/)]);
  });

  it('shows Greta the change on her order’s page, in her language', async () => {
    await greta.goto(`/orders/${gretasOrder}`);
    const section = greta.getByRole('region', { name: german('orderMessages.title') });
    const notice = section.getByRole('article', { name: german('orderMessages.change.title') });
    await notice.getByText('Pier 3, Hamburg').waitFor();
    await notice.getByText(/Harbour Hall, Hamburg/).waitFor();
    expect(await accessibilityViolations(greta)).toEqual([]);
    await greta.screenshot({ path: `${shots}/change-notice-order-1280.png`, fullPage: true });
    await greta.setViewportSize({ width: 390, height: 844 });
    await greta.screenshot({ path: `${shots}/change-notice-order-390.png`, fullPage: true });
  });
});
