import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('a fan joins the pre-sale list of tickets not on sale yet, and is offered theirs when sales start', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let fan: Page;
  let eventId = '';
  let slug = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    fan = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('lets the organizer open a pre-sale list on the Waiting list page', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga.presale@example.test' });
    // Making the event is other screens' work: it is done through their callables.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Hall' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Choir at the Harbour',
      venue: 'Harbour Hall, Kiel',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-11-02T20:00',
      endsAtLocal: '2030-11-02T22:00',
      capacity: 10,
    }));
    await callAs(organizer)('events.addTicketType', {
      eventId,
      name: 'Early bird',
      capacity: 10,
      price: 0,
      salesStartLocal: '2029-06-01T10:00',
    });
    await callAs(organizer)('events.publish', { eventId });

    await organizer.goto(`/manage/events/${eventId}/waitlist`);
    await organizer.getByRole('heading', { name: 'Waiting list', level: 1 }).waitFor();
    await organizer.getByRole('switch', { name: 'Open the waiting list' }).check();
    await organizer.getByRole('switch', { name: 'Also before sales start (pre-sale list)' }).check();
    await organizer.getByRole('button', { name: 'Save' }).click();
    await organizer.getByText('Saved: the waiting list is open.').waitFor();
    await screenshots(organizer, 'presale-settings');
  });

  it('shows the fan when sales start, and takes them on the list', async () => {
    await signUpAndVerify(fan, { name: 'Fay Fan', email: 'fay.presale@example.test' });
    await fan.goto(`/e/${slug}`);
    const tickets = fan.getByRole('region', { name: 'Tickets' });
    await tickets.getByText(/^On sale from .*2029/).waitFor();
    // Nothing to choose before then: no number field.
    expect(await fan.getByRole('spinbutton', { name: 'Number of Early bird tickets' }).count()).toBe(0);
    await screenshots(fan, 'presale-picker');
    await fan.getByRole('button', { name: 'Join the waiting list for Early bird' }).click();
    await fan.getByText('You are number 1 on the waiting list for 1 × Early bird.').waitFor();
  });

  it('offers the fan their places the moment sales start', async () => {
    // The organizer moves the sales start to the past in the ticket type's editor.
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('button', { name: 'Change “Early bird”' }).click();
    await organizer.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = organizer.getByRole('dialog', { name: 'Edit “Early bird”' });
    await dialog.getByLabel('Sales start (optional)').fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Live, on the page the fan left open: their place is held for them, before anyone else's.
    await fan.getByText(/1 place for Early bird came free for you: it is held until/).waitFor({ timeout: 30_000 });
    await fan.getByRole('button', { name: 'Accept the tickets for Early bird' }).click();
    await fan.getByText('You have your tickets: 1 × Early bird.').waitFor();
    await screenshots(fan, 'presale-offer');
  });
});
