import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

const shots = process.env.SCREENSHOT_DIR ?? '/tmp/shots';

/** A paid order of `quantity` tickets, through the sandbox with its test card. */
async function buy(page: Page, eventId: string, ticketTypeId: string, quantity: number) {
  const { orderId } = await callAs(page)<{ orderId: string }>('orders.create', { eventId, lines: [{ ticketTypeId, quantity }] });
  const { clientSecret } = await callAs(page)<{ clientSecret: string }>('orders.startPayment', { orderId });
  await callAs(page)('payments.sandboxConfirm', { clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
  expect(await callAs(page)<{ status: string }>('orders.confirmPayment', { orderId })).toMatchObject({ status: 'paid' });
}

describe('an organizer changes an event while it is on sale, then cancels it', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let buyer: Page;
  let staff: Page;
  let eventId = '';
  let slug = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [organizer, buyer, staff] = await Promise.all([
      journey.newPage({ viewport: { width: 1280, height: 900 } }),
      journey.newPage({ viewport: { width: 390, height: 844 } }),
      journey.newPage({ viewport: { width: 390, height: 844 } }),
    ]);
  });

  it('sets up an event with a paid buyer and a free guest who is also door staff', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.lifecycle@example.test' });
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Late Jazz',
      venue: 'Harbour Hall',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    const { ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 40,
      price: 2500,
    });
    const { ticketTypeId: crewTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Crew guest',
      capacity: 5,
      price: 0,
    });
    await callAs(organizer)('events.publish', { eventId });
    const { invitationId } = await callAs(organizer)<{ invitationId: string }>('orgs.invite', {
      organizationId,
      email: 'dana.lifecycle@example.test',
      role: 'staff',
    });

    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno.lifecycle@example.test' });
    await buy(buyer, eventId, ticketTypeId, 2);
    // The door staff member took a free ticket too (three sign-ups are what the server allows from one
    // address within ten seconds).
    await signUpAndVerify(staff, { name: 'Dana Door', email: 'dana.lifecycle@example.test' });
    await callAs(staff)('orders.create', { eventId, lines: [{ ticketTypeId: crewTypeId, quantity: 1 }] });
    await callAs(staff)('orgs.acceptInvitation', { invitationId });
  });

  it('edits the event’s details while a buyer has its page open, and the buyer sees them change', async () => {
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('heading', { name: 'Late Jazz', level: 1 }).waitFor();
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz', level: 1 }).waitFor();

    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Edit details' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Edit the event' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Late Jazz on the Pier');
    await dialog.getByRole('textbox', { name: 'Venue' }).fill('Pier 3, Hamburg');
    // Sold already: the currency is shown, fixed.
    await expect(dialog.getByLabel(/^Currency/).isDisabled()).resolves.toBe(true);
    const capacity = dialog.getByRole('textbox', { name: 'Capacity' });
    await capacity.fill('2');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('The capacity cannot be below the 3 places already sold or held.').waitFor();
    await organizer.screenshot({ path: `${shots}/edit-event-1280.png` });
    await capacity.fill('60');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    // A new venue with tickets sold: telling the holders is offered, and declined here.
    await dialog.getByRole('button', { name: 'Don’t email' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await buyer.getByRole('heading', { name: 'Late Jazz on the Pier', level: 1 }).waitFor();
    await buyer.getByText('Pier 3, Hamburg').waitFor();
    await expect.poll(() => buyer.title()).toBe('Late Jazz on the Pier · Admit');
  });

  it('raises a ticket type’s price for new orders and limits it to three per buyer; the buyer’s page shows both', async () => {
    await organizer.getByRole('button', { name: 'Change “Standing”' }).click();
    await organizer.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Edit “Standing”' });
    await dialog.getByRole('textbox', { name: 'Price (EUR)' }).fill('30');
    await dialog.getByRole('textbox', { name: /^Limit per buyer/ }).fill('3');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = organizer.getByRole('row', { name: /Standing/ });
    await row.getByText('€30.00').waitFor();
    await row.getByText('10 (3 per buyer)').waitFor();
    await buyer.getByText('€30.00').waitFor();
    await buyer.getByText('At most 3 per person, across orders').waitFor();

    // Bruno has two already: two more would be four.
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer
      .getByRole('alert')
      .getByText('You can have at most 3 tickets of this type, and you have 2 already (counting orders you have not paid yet).')
      .waitFor();
    await buyer.screenshot({ path: `${shots}/buyer-limit-390.png`, fullPage: true });

    const changes = organizer.getByRole('heading', { name: 'Changes' }).locator('xpath=../..');
    await changes.getByText('Olivia Organizer changed the price and the limit per buyer of “Standing”').waitFor();
    await changes.getByText('Olivia Organizer changed the title, the venue, and the capacity').waitFor();
    await organizer.screenshot({ path: `${shots}/event-editor-1280.png`, fullPage: true });
    await organizer.setViewportSize({ width: 390, height: 844 });
    // On a phone each row stacks its cells: its menu is on screen, and nothing scrolls sideways.
    const types = organizer.getByRole('region', { name: 'Ticket types' });
    await types.getByRole('button', { name: 'Change “Standing”' }).waitFor();
    expect(await types.evaluate((region) => region.scrollWidth <= region.clientWidth)).toBe(true);
    await expect(organizer.getByText('Scroll sideways to see every column.').count()).resolves.toBe(0);
    await organizer.screenshot({ path: `${shots}/event-editor-390.png`, fullPage: true });
    await organizer.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows door staff the scanner and the attendee list, and no control they cannot use', async () => {
    await staff.goto(`/manage/events/${eventId}`);
    await staff.getByRole('heading', { name: 'Late Jazz on the Pier', level: 1 }).waitFor();
    await staff.getByRole('link', { name: 'Open the scanner' }).waitFor();
    await staff.getByRole('heading', { name: 'Attendee list' }).waitFor();
    await staff.getByRole('button', { name: 'Attendees (CSV)' }).waitFor();
    for (const hidden of ['Ticket types', 'Orders', 'Changes']) {
      await expect(staff.getByRole('heading', { name: hidden, exact: true }).count()).resolves.toBe(0);
    }
    for (const hidden of ['Event actions', 'Orders (CSV)']) {
      await expect(staff.getByRole('button', { name: hidden }).count()).resolves.toBe(0);
    }
    await expect(staff.getByRole('link', { name: 'Import a guest list' }).count()).resolves.toBe(0);
    await staff.screenshot({ path: `${shots}/event-staff-390.png`, fullPage: true });
  });

  it('cancels the event: every paid order refunded, every buyer emailed, the public page says cancelled', async () => {
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Cancel event' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Cancel “Late Jazz on the Pier”?' });
    await dialog.getByRole('textbox', { name: 'Message to your buyers (optional)' }).fill('The pier is closed for repairs.');
    await organizer.screenshot({ path: `${shots}/cancel-event-1280.png` });
    await dialog.getByRole('button', { name: 'Cancel event and refund everyone' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await buyer.getByText('This event is cancelled').waitFor();
    await expect(buyer.getByRole('button', { name: /Buy|Get tickets/ }).count()).resolves.toBe(0);
    await buyer.screenshot({ path: `${shots}/public-cancelled-390.png`, fullPage: true });
    await organizer.getByText('This event is cancelled').waitFor();
    await organizer
      .getByRole('row', { name: /Bruno Buyer/ })
      .getByText('Refunded')
      .waitFor({ timeout: 15_000 });
    // A free order gave no money back: it reads as cancelled, to the organizer and to its holder.
    await organizer
      .getByRole('row', { name: /Dana Door/ })
      .getByText('Cancelled')
      .waitFor({ timeout: 15_000 });
    await staff.goto('/tickets');
    await staff.getByText('Your free ticket is cancelled: there is nothing to refund.').waitFor();
    await expect(staff.getByText('Your money is refunded in full.').count()).resolves.toBe(0);
    await organizer.getByText('0 of 60 places taken').waitFor();

    await expect
      .poll(
        async () =>
          (await readOutbox(organizer))
            .filter((one) => one.subject === 'Late Jazz on the Pier is cancelled')
            .map((one) => one.to)
            .sort(),
        {
          timeout: 15_000,
        },
      )
      .toEqual(['bruno.lifecycle@example.test', 'dana.lifecycle@example.test']);
    const [toBruno] = (await readOutbox(organizer)).filter(
      (one) => one.to === 'bruno.lifecycle@example.test' && one.subject.endsWith('cancelled'),
    );
    expect(toBruno!.text).toContain('The pier is closed for repairs.');
    expect(toBruno!.text).toContain('€50.00');
    await organizer.screenshot({ path: `${shots}/event-cancelled-1280.png`, fullPage: true });
  });
});
