import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an organizer sells crew tickets with an access code and early tickets with a discount code', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let crew: Page;
  let latecomer: Page;
  let eventId = '';
  let slug = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    crew = await journey.newPage({ viewport: { width: 390, height: 844 } });
    latecomer = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('sets up an event with public tickets and hidden crew tickets', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    // Making the event is other screens' work: it is made through the callables they use.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Late Jazz at the Harbour',
      venue: 'Harbour Hall, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 100,
    }));
    await callAs(organizer)('events.addTicketType', { eventId, name: 'Standing', capacity: 90, price: 2500 });
    const { ticketTypeId: crewId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Crew',
      capacity: 10,
      price: 0,
    });
    await callAs(organizer)('events.updateTicketType', {
      ticketTypeId: crewId,
      name: 'Crew',
      price: 0,
      capacity: 10,
      maxPerOrder: 10,
      salesStartLocal: null,
      salesEndLocal: null,
      hidden: true,
    });
    await callAs(organizer)('events.publish', { eventId });
  });

  it('makes a code for the crew tickets from the event’s page, limited to two tickets', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz at the Harbour', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Codes' }).click();
    await organizer.getByRole('heading', { name: /Discount and access codes/, level: 1 }).waitFor();
    await organizer.getByText('No codes yet.').waitFor();

    // Typed in small letters, kept in capitals.
    await organizer.getByRole('textbox', { name: 'Code', exact: true }).fill('crew-2030');
    await organizer.getByRole('checkbox', { name: 'Crew (hidden)' }).check();
    await organizer.getByRole('textbox', { name: 'Tickets in all (optional)' }).fill('2');
    await organizer.getByRole('button', { name: 'Create code' }).click();
    const row = organizer.getByRole('row', { name: /CREW-2030/ });
    await row.getByRole('cell', { name: 'Crew', exact: true }).waitFor();
    await row.getByText('0 of 2').waitFor();
    await row.getByText('Always').waitFor();
    await screenshots(organizer, 'access-codes');
  });

  it('shows a buyer only the public tickets, refuses a wrong code, and sells the crew tickets with the right one', async () => {
    await signUpAndVerify(crew, { name: 'Carla Crew', email: 'carla@example.test' });
    await crew.goto(`/e/${slug}`);
    const tickets = crew.getByRole('region', { name: 'Tickets' });
    await tickets.getByText('Standing').waitFor();
    await crew.getByRole('button', { name: 'Have a code?' }).click();
    const field = crew.getByRole('textbox', { name: 'Discount or access code' });
    // The field opened under the button: focus is in it.
    await field.press('Control+a');
    await crew.keyboard.type('crew-2031');
    await crew.keyboard.press('Enter');
    await crew.getByText('This event has no such code. Check how it is written.').waitFor();
    if ((await tickets.getByText('Crew').count()) !== 0) throw new Error('a wrong code showed the crew tickets');

    await field.fill('crew-2030');
    await crew.getByRole('button', { name: 'Apply' }).click();
    await crew
      .getByRole('status')
      .getByText(/It unlocked 1 ticket type/)
      .waitFor();
    await tickets.getByText('With your code').waitFor();
    await crew.getByRole('spinbutton', { name: 'Number of Crew tickets' }).fill('2');
    await screenshots(crew, 'access-code-applied');
    await crew.getByRole('button', { name: 'Get 2 tickets' }).click();
    await crew.getByText('Your tickets are ready').waitFor();
    // The link now carries the code: it can be shared as it is.
    if (!crew.url().includes('code=CREW-2030')) throw new Error(`the page's link lost the code: ${crew.url()}`);
  });

  it('counts the two tickets on the organizer’s list at once, and shows the next buyer with the link that none are left', async () => {
    await organizer
      .getByRole('row', { name: /CREW-2030/ })
      .getByText('2 of 2')
      .waitFor();

    await signUpAndVerify(latecomer, { name: 'Luis Late', email: 'luis@example.test' });
    await latecomer.goto(`/e/${slug}?code=crew-2030`);
    const tickets = latecomer.getByRole('region', { name: 'Tickets' });
    await tickets.getByText('With your code').waitFor();
    await tickets.getByText('Sold out').waitFor();
    await latecomer.getByRole('button', { name: 'Remove code' }).click();
    await latecomer.getByRole('button', { name: 'Have a code?' }).waitFor();
    // The focus comes back to the button that took the place of the one pressed.
    await expect.poll(() => latecomer.evaluate(() => document.activeElement?.textContent)).toBe('Have a code?');
    if ((await tickets.getByText('Crew').count()) !== 0) throw new Error('the removed code still shows the crew tickets');
  });

  it('makes a discount code of 20% for every visible type, shown as it is on the list', async () => {
    await organizer.getByRole('textbox', { name: 'Code', exact: true }).fill('early-bird');
    await organizer.getByRole('radio', { name: 'Percentage' }).check();
    await organizer.getByRole('textbox', { name: 'Percent off each ticket' }).fill('20');
    await organizer.getByRole('button', { name: 'Create code' }).click();
    const row = organizer.getByRole('row', { name: /EARLY-BIRD/ });
    await row.getByText('Every visible type').waitFor();
    await row.getByText('20% off').waitFor();
  });

  it('makes five member codes at once and downloads every code as a CSV file with its link', async () => {
    await organizer.getByRole('textbox', { name: 'How many codes' }).fill('5');
    await organizer.getByRole('textbox', { name: 'Start of each code (optional)' }).fill('member');
    await organizer.getByRole('radio', { name: 'Amount (EUR)' }).check();
    await organizer.getByRole('textbox', { name: 'Off each ticket (EUR)' }).fill('3');
    await organizer.getByRole('textbox', { name: 'Tickets in all (optional)' }).fill('1');
    await organizer.getByRole('button', { name: 'Create 5 codes' }).click();
    await organizer.getByText('5 codes made. Download them from the list as a CSV file.').waitFor();
    await expect.poll(() => organizer.getByRole('row', { name: /MEMBER-/ }).count()).toBe(5);

    const [download] = await Promise.all([
      organizer.waitForEvent('download'),
      organizer.getByRole('link', { name: 'Download all codes (CSV)' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const members = csv.split(/\r?\n/).filter((line) => line.startsWith('MEMBER-'));
    expect(members).toHaveLength(5);
    for (const line of members) expect(line).toContain(`/e/${slug}?code=MEMBER-`);
  });

  it('lets a buyer with the link pay €40.00 for two €25.00 tickets, and shows the discount on the order', async () => {
    // The buyer from before: sign-ups from one address are limited.
    const early = latecomer;
    await early.goto(`/e/${slug}?code=early-bird`);
    const tickets = early.getByRole('region', { name: 'Tickets' });
    await early
      .getByRole('status')
      .getByText(/Code EARLY-BIRD applied: 20% off/)
      .waitFor();
    await tickets.getByText('€25.00').waitFor();
    await tickets.getByText('€20.00').waitFor();
    await early.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('2');
    await early.getByTestId('picker-total').getByText('€40.00').waitFor();
    await screenshots(early, 'discount-code-applied');
    await early.getByRole('button', { name: 'Get 2 tickets' }).click();

    await early.getByLabel('Card number').fill('4242 4242 4242 4242');
    await early.getByLabel('Expiry (MM/YY)').fill('12/34');
    await early.getByLabel('CVC').fill('123');
    await early.getByTestId('line-code').getByText('Code EARLY-BIRD: €5.00 off each').waitFor();
    await early.getByTestId('order-total').getByText('€40.00').waitFor();
    await early.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => early.getByTestId('order-status').textContent()).toBe('Paid');
  });

  it('shows the organizer the code and what it took off in the order’s detail', async () => {
    await organizer
      .getByRole('row', { name: /EARLY-BIRD/ })
      .getByText('2', { exact: true })
      .waitFor();
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer
      .getByRole('row', { name: /Luis Late/ })
      .getByRole('link', { name: 'Luis Late' })
      .click();
    await organizer.getByTestId('line-code').getByText('Code EARLY-BIRD: €5.00 off each').waitFor();
    await screenshots(organizer, 'discount-order-detail');
  });
});
