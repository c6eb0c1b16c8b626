import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

// Without wallet settings the server signs passes with its development keys (decision 0067): the
// wallets would refuse them, but the files and the redirect are the real ones.
describe('a fan adds their ticket to Apple Wallet and Google Wallet from My tickets', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let buyer: Page;
  let orderId = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    buyer = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('shows both wallet buttons on the ticket, on a phone', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga.wallets@example.test' });
    // Making the event is other screens' work: it is done through their callables.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Lighthouse' });
    const { eventId } = await callAs(organizer)<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Quartet at the Lighthouse',
      venue: 'The Lighthouse, Kiel',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-09-20T20:00',
      endsAtLocal: '2030-09-20T22:00',
      capacity: 50,
    });
    const { ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 50,
      price: 0,
    });
    await callAs(organizer)('events.publish', { eventId });

    await signUpAndVerify(buyer, { name: 'Bea Buyer', email: 'bea.wallets@example.test' });
    ({ orderId } = await callAs(buyer)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 1 }],
    }));
    await buyer.goto('/tickets');
    await buyer.getByRole('img', { name: /^QR code of ticket / }).waitFor();
    await buyer.getByRole('link', { name: 'Add to Apple Wallet: the Standing ticket for Bea Buyer' }).waitFor();
    await buyer.getByRole('link', { name: 'Add to Google Wallet: the Standing ticket for Bea Buyer' }).waitFor();
    await screenshots(buyer, 'wallet-my-tickets');
  });

  it('downloads the Apple Wallet pass as a .pkpass file', async () => {
    const apple = buyer.getByRole('link', { name: /^Add to Apple Wallet/ });
    const [download] = await Promise.all([buyer.waitForEvent('download'), apple.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pkpass$/);
    const file = readFileSync(await download.path());
    // A pass is a ZIP archive (pass.json, manifest.json, signature, images).
    expect(file.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it("sends the Google Wallet link on to Google's save page", async () => {
    const href = await buyer.getByRole('link', { name: /^Add to Google Wallet/ }).getAttribute('href');
    expect(href).toMatch(/^\/files\/tickets\/[^/]+\/google-wallet$/);
    const response = await buyer.request.get(href!, { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("offers the same on the order's page, beside the ticket's holder", async () => {
    await buyer.goto(`/orders/${orderId}`);
    await buyer.getByRole('link', { name: 'Add to Apple Wallet: the Standing ticket for Bea Buyer' }).waitFor();
    await buyer.getByRole('link', { name: 'Add to Google Wallet: the Standing ticket for Bea Buyer' }).waitFor();
    await screenshots(buyer, 'wallet-order');
  });
});
