import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { readOutbox } from './support/outbox';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('a fan waits for a sold-out show and gets the place someone gave back', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let fan: Page;
  let guest: Page;
  let seatTypeId = '';
  let eventId = '';
  let slug = '';
  let holderOrderId = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    fan = await journey.newPage({ viewport: { width: 390, height: 844 } });
    guest = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('opens the waiting list of a sold-out event from the event’s page', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.waits@example.test' });
    // Making and selling out the event is other screens' work: it is done through their callables.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Small Room' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Piano in the Small Room',
      venue: 'Small Room, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T22:00',
      capacity: 2,
    }));
    const { ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Seat',
      capacity: 1,
      price: 0,
    });
    seatTypeId = ticketTypeId;
    await callAs(organizer)('events.publish', { eventId });
    // The one seat goes at once (to the organizer's own account: whose it is does not matter here).
    ({ orderId: holderOrderId } = await callAs(organizer)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 1 }],
    }));

    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Piano in the Small Room', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Waiting list' }).click();
    await organizer.getByRole('heading', { name: 'Waiting list', level: 1 }).waitFor();
    await organizer.getByRole('switch', { name: 'Open the waiting list' }).check();
    await organizer.getByRole('button', { name: 'Save' }).click();
    await organizer.getByText(/No one is on the waiting list|Nobody is on the waiting list/).waitFor();
  });

  it('lets a fan join from the public page and shows their place live', async () => {
    await signUpAndVerify(fan, { name: 'Finn Fan', email: 'finn.fan@example.test' });
    await fan.goto(`/e/${slug}`);
    await fan.getByRole('button', { name: 'Join the waiting list for Seat' }).click();
    await fan.getByText('You are number 1 on the waiting list for 1 × Seat.').waitFor();
    await screenshots(fan, 'waitlist-joined');
    await organizer
      .getByRole('row', { name: /Finn Fan/ })
      .getByText('Waiting')
      .waitFor();
  });

  it('offers the fan the seat its holder gave back, which the fan accepts', async () => {
    await callAs(organizer)('orders.refund', {
      orderId: holderOrderId,
      reason: 'Cannot come',
      idempotencyKey: 'waitlist-journey-1',
    });
    // Live, without a reload.
    await fan.getByText(/1 place for Seat came free for you: it is held until/).waitFor();
    await organizer
      .getByRole('row', { name: /Finn Fan/ })
      .getByText('Offered')
      .waitFor();
    await screenshots(fan, 'waitlist-offered');
    await fan.getByRole('button', { name: 'Accept the tickets for Seat' }).click();
    await fan.getByText('You have your tickets: 1 × Seat.').waitFor();
    await organizer
      .getByRole('row', { name: /Finn Fan/ })
      .getByText('Has tickets')
      .waitFor();
    await screenshots(organizer, 'waitlist-organizer');
  });

  it('lets a guest wait with an address, confirmed by the emailed link, and gives them the seat a larger room adds', async () => {
    await guest.goto(`/e/${slug}`);
    const join = guest.getByTestId(`waitlist-join-${seatTypeId}`);
    await join.getByRole('textbox', { name: 'Your name' }).fill('Gina Guest');
    await join.getByRole('textbox', { name: 'Email address' }).fill('gina.guest@example.test');
    await screenshots(guest, 'waitlist-guest-join');
    await join.getByRole('button', { name: 'Join the waiting list for Seat' }).click();
    await guest
      .getByText('Check your inbox: open the link we sent to gina.guest@example.test to take your place on the waiting list.')
      .waitFor();
    // Not on the organizer's list until the address is known to be hers.
    await organizer.getByRole('row', { name: /Finn Fan/ }).waitFor();
    expect(await organizer.getByRole('row', { name: /Gina Guest/ }).count()).toBe(0);

    await guest.goto(await waitlistLinkTo(guest, 'gina.guest@example.test'));
    await guest.getByRole('heading', { name: 'Your place on the waiting list', level: 1 }).waitFor();
    await guest.getByText('You are number 1 on the waiting list for 1 × Seat.').waitFor();
    await organizer
      .getByRole('row', { name: /Gina Guest/ })
      .getByText('Waiting')
      .waitFor();
    await screenshots(guest, 'waitlist-guest');

    // The organizer makes room for one more: the seat goes to Gina, not to the public.
    await callAs(organizer)('events.updateTicketType', {
      ticketTypeId: seatTypeId,
      name: 'Seat',
      price: 0,
      capacity: 2,
      maxPerOrder: 10,
      salesStartLocal: null,
      salesEndLocal: null,
      hidden: false,
    });
    await guest.getByRole('button', { name: 'Accept the tickets for Seat' }).click();
    await guest.getByText('You have your tickets: 1 × Seat.').waitFor();
    await organizer
      .getByRole('row', { name: /Gina Guest/ })
      .getByText('Has tickets')
      .waitFor();
  });
});

/** The waiting-list link in the newest email to `email`, waiting a little for it. */
async function waitlistLinkTo(page: Page, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const message = (await readOutbox(page)).find((one) => one.to === email);
    const link = message?.text.match(/https?:\/\/\S+\/waitlist\/\S+/)?.[0];
    if (link) return link;
    await page.waitForTimeout(100);
  }
  throw new Error(`No waiting-list link for ${email}`);
}
