import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

// Guest checkout (decision 0060): a visitor who is not signed in buys with a name and an address,
// a free ticket through the link emailed to them (on a phone) and a paid one with the sandbox card.

/** The link to an order in the newest email to `email` whose subject matches, waiting a little for it. */
async function orderLinkTo(page: Page, email: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const message = (await readOutbox(page)).find((one) => one.to === email && subject.test(one.subject));
    const link = message?.text.match(/https?:\/\/\S+\/orders\/\S+/)?.[0];
    if (link) return link;
    await page.waitForTimeout(100);
  }
  throw new Error(`No order link for ${email}`);
}

async function expectText(page: Page, text: string | RegExp, timeout = 5_000) {
  await page.getByText(text).first().waitFor({ timeout });
}

describe('a visitor buys without an account', () => {
  const journey = useJourney();
  let organizer: Page;
  let phone: Page;
  let desktop: Page;
  let eventPath = '';

  beforeAll(async () => {
    organizer = await journey.newPage();
    phone = await journey.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    desktop = await journey.newPage();
  });

  it('lets the organizer sell a free and a paid ticket type', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    await organizer.getByRole('link', { name: 'Organize' }).first().click();
    await organizer.getByLabel('Organization name').fill('Guest House');
    await organizer.getByRole('button', { name: 'Create organization' }).click();
    await organizer.getByRole('heading', { name: 'Events of Guest House' }).waitFor();
    await organizer.getByLabel('Title').fill('Open Doors');
    await organizer.getByLabel('Venue').fill('Hall 1');
    const zone = organizer.getByRole('combobox', { name: 'Time zone of the event' });
    await zone.fill('Europe/Berlin');
    await organizer.getByRole('option', { name: 'Europe/Berlin' }).click();
    await organizer.getByLabel('Starts').fill('2030-05-10T19:00');
    await organizer.getByLabel('Ends').fill('2030-05-10T22:00');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('10');
    await organizer.getByRole('button', { name: 'Create event' }).click();
    await organizer.getByRole('heading', { name: 'Open Doors' }).waitFor();
    await organizer.getByRole('textbox', { name: 'Name', exact: true }).fill('Standing');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('5');
    await organizer.getByRole('button', { name: 'Add ticket type' }).click();
    await organizer.getByRole('cell', { name: 'Standing' }).first().waitFor();
    await organizer.getByRole('textbox', { name: 'Name', exact: true }).fill('Seat');
    await organizer.getByRole('textbox', { name: /^Price/ }).fill('12');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('5');
    await organizer.getByRole('button', { name: 'Add ticket type' }).click();
    await organizer.getByRole('cell', { name: 'Seat', exact: true }).first().waitFor();
    await organizer.getByRole('button', { name: 'Publish' }).click();
    await expectText(organizer, 'On sale');
    eventPath = new URL((await organizer.getByRole('link', { name: 'View public page' }).getAttribute('href'))!, journey.url)
      .pathname;
  });

  it('on a phone: holds a free ticket for a name and an address, and issues it when the emailed link is opened', async () => {
    await phone.goto(eventPath);
    await phone.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('1');
    // Both ways, one step each.
    await phone.getByRole('link', { name: 'Sign in', exact: true }).last().waitFor();
    await phone.getByRole('button', { name: 'Continue with email' }).click();
    await phone.getByRole('textbox', { name: 'Your name' }).fill('Gina Guest');
    await phone.getByRole('textbox', { name: 'Email address' }).fill('Gina@Example.test');
    expect(await accessibilityViolations(phone)).toEqual([]);
    await screenshots(phone, 'guest-checkout-form');
    await phone.getByRole('button', { name: 'Get 1 ticket' }).click();
    await expectText(phone, 'Check your email');
    await expectText(phone, /We sent a link to gina@example\.test/i);

    const link = await orderLinkTo(phone, 'gina@example.test', /^Confirm your tickets/);
    expect(link).toMatch(/\/orders\/[^?]+\?token=[\w-]{43}$/);
    await phone.goto(new URL(link).pathname + new URL(link).search);
    await expect.poll(() => phone.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    await phone.getByRole('link', { name: 'Download tickets (PDF)' }).waitFor();
    expect(await accessibilityViolations(phone)).toEqual([]);
    await screenshots(phone, 'guest-order-confirmed');
    // The link also lets the guest say who uses the ticket, as a buyer with an account does.
    const holders = phone.getByRole('heading', { name: 'Who is coming?' }).locator('xpath=..');
    await holders.getByText('For Gina Guest').waitFor();
    await holders.getByRole('button', { name: 'Change the name on this Standing ticket' }).click();
    await holders.getByRole('textbox', { name: 'Name on this Standing ticket' }).fill('Gio Guest');
    await holders.getByRole('button', { name: 'Save name' }).click();
    await holders.getByText('For Gio Guest').waitFor();
    await expectText(organizer, '1 of 10 places taken', 10_000);
  });

  it('pays for a ticket with the sandbox card, without an account', async () => {
    await desktop.goto(eventPath);
    await desktop.getByRole('spinbutton', { name: 'Number of Seat tickets' }).fill('1');
    await desktop.getByRole('button', { name: 'Continue with email' }).click();
    await desktop.getByRole('textbox', { name: 'Your name' }).fill('Paula Payer');
    await desktop.getByRole('textbox', { name: 'Email address' }).fill('paula@example.test');
    await desktop.getByRole('textbox', { name: 'Email address' }).press('Enter');

    await desktop.getByRole('heading', { name: 'Your order' }).waitFor();
    await expect.poll(() => desktop.getByTestId('order-status').textContent()).toBe('Awaiting payment');
    await desktop.getByLabel('Card number').fill('4242 4242 4242 4242');
    await desktop.getByLabel('Expiry (MM/YY)').fill('12/34');
    await desktop.getByLabel('CVC').fill('123');
    await desktop.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => desktop.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    expect(await accessibilityViolations(desktop)).toEqual([]);
    // The confirmation links to the same order, without signing in.
    const link = await orderLinkTo(desktop, 'paula@example.test', /^Your tickets/);
    expect(new URL(link).pathname).toBe(new URL(desktop.url()).pathname);
  });
});
