import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { linkFromOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

const shots = process.env.SCREENSHOT_DIR ?? '/tmp/shots';

describe('a buyer who signed in by email link names themself and the people their tickets are for', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let buyer: Page;
  let eventId = '';
  let slug = '';
  let ticketTypeId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [organizer, buyer] = await Promise.all([
      journey.newPage({ viewport: { width: 1280, height: 900 } }),
      journey.newPage({ viewport: { width: 390, height: 844 } }),
    ]);
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.names@example.test' });
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Names Night',
      venue: 'Harbour Hall',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    ({ ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 40,
    }));
    await callAs(organizer)('events.publish', { eventId });
  });

  it('is asked for a name once after the first sign-in by email link', async () => {
    await buyer.goto('/sign-in?method=email-link&redirect=/tickets');
    await buyer.getByRole('textbox', { name: 'Email' }).fill('nora.names@example.test');
    await buyer.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await buyer.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await buyer.goto(await linkFromOutbox(buyer, 'nora.names@example.test'));

    const prompt = buyer.getByRole('dialog', { name: 'What is your name?' });
    await prompt.waitFor();
    await buyer.screenshot({ path: `${shots}/name-prompt-390.png` });
    await prompt.getByRole('button', { name: 'Save' }).click();
    await prompt.getByText('This field is required.').waitFor();
    await prompt.getByRole('textbox', { name: 'Your name' }).fill('Nora Names');
    await prompt.getByRole('button', { name: 'Save' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await buyer.reload();
    await buyer.getByRole('heading', { name: 'My tickets' }).waitFor();
    await expect(buyer.getByRole('dialog', { name: 'What is your name?' }).count()).resolves.toBe(0);
  });

  it('takes two tickets, which carry the buyer’s name, and names the second one’s holder', async () => {
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('heading', { name: 'Names Night', level: 1 }).waitFor();
    const { orderId } = await callAs(buyer)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 2 }],
    });
    // Right after checkout, the order's page asks who is coming.
    await buyer.goto(`/orders/${orderId}`);
    const holders = buyer.getByRole('heading', { name: 'Who is coming?' }).locator('xpath=..');
    await expect.poll(() => holders.getByText('For Nora Names').count(), { timeout: 10_000 }).toBe(2);
    // Each row names its ticket's type.
    await expect.poll(() => holders.getByRole('listitem').filter({ hasText: 'Standing' }).count()).toBe(2);
    await buyer.goto('/tickets');
    const cards = buyer.getByRole('listitem', { name: 'Standing ticket for Names Night' });
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(2);
    await cards.nth(0).getByText('For Nora Names').waitFor();

    await cards.nth(1).getByRole('button', { name: 'Change the name on this Standing ticket' }).click();
    await cards.nth(1).getByRole('textbox', { name: 'Name on this Standing ticket' }).fill('Max Mate');
    await buyer.screenshot({ path: `${shots}/ticket-holder-390.png`, fullPage: true });
    await cards.nth(1).getByRole('button', { name: 'Save name' }).click();
    await cards.nth(1).getByText('For Max Mate').waitFor();
    await cards.nth(0).getByText('For Nora Names').waitFor();
  });

  it('says a name changed with no network is saved once the network is back, and saves it then', async () => {
    const cards = buyer.getByRole('listitem', { name: 'Standing ticket for Names Night' });
    await buyer.context().setOffline(true);
    await cards.nth(1).getByRole('button', { name: 'Change the name on this Standing ticket' }).click();
    await cards.nth(1).getByRole('textbox', { name: 'Name on this Standing ticket' }).fill('Max Mateo');
    await cards.nth(1).getByRole('button', { name: 'Save name' }).click();
    await cards
      .nth(1)
      .getByRole('status')
      .getByText('You are offline. The new name will be saved as soon as you are back online; keep this page open until then.')
      .waitFor();
    await buyer.context().setOffline(false);
    await cards.nth(1).getByText('For Max Mateo').waitFor();
  });

  it('shows the organizer those names in the orders list, the order’s detail, the scanner and the attendee export', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    const row = organizer.getByRole('row', { name: /Nora Names/ });
    await row.getByRole('link', { name: 'Nora Names' }).click();
    await organizer.getByRole('heading', { name: 'Nora Names', level: 1 }).waitFor();
    const tickets = organizer.getByRole('table', { name: 'Tickets' });
    await tickets.getByText('Max Mateo').waitFor();
    await tickets.getByText('Nora Names').waitFor();
    await organizer.getByText('Ticket holder changed from Max Mate to Max Mateo').waitFor();
    await organizer.getByText(/^Order [0-9A-F]{8} · nora\.names@example\.test/).waitFor();

    await organizer.goto(`/manage/events/${eventId}/scan`);
    await organizer.getByRole('textbox', { name: 'Scanner name' }).fill('Door 1');
    await organizer.getByRole('button', { name: 'Start scanning' }).click();
    await organizer.getByRole('textbox', { name: 'Ticket code or name' }).fill('max');
    await organizer.getByRole('table', { name: 'People found' }).getByText('Max Mateo').waitFor();

    const csv = await (await organizer.request.get(`/files/events/${eventId}/exports/attendees.csv`)).text();
    expect(csv).toContain('Max Mate');
    expect(csv).toContain('Nora Names');
  });
});
