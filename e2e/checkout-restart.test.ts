import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startAdmit, type AdmitServer } from './support/admit-server';
import { callAs, launchChromium, newPage, signUpAndVerify } from './support/browser';

const password = 'correct horse battery staple';

describe('the server restarts while a buyer is at the payment step', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-restart-'));
  let port = '';
  let server: AdmitServer;
  let browser: Browser;
  let buyer: Page;
  let orderPath = '';

  beforeAll(async () => {
    port = String(await freePort());
    server = await startAdmit({ DATA_DIR: dataDir, PORT: port });
    browser = await launchChromium();
    buyer = await newPage(browser, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the hold, and the payment after the restart completes the order once', async () => {
    const organizer = await newPage(browser, server.url);
    await signUpAndVerify(organizer, 'Olivia Organizer', 'olivia@example.test', password);
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Restart Records' });
    const { eventId, slug } = await call('events.create', {
      organizationId,
      title: 'Power Cut Party',
      venue: 'Substation',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-03-01T21:00',
      endsAtLocal: '2030-03-02T03:00',
      capacity: 2,
    });
    await call('events.addTicketType', { eventId, name: 'Entry', capacity: 2, maxPerOrder: 2, price: 1200 });
    await call('events.publish', { eventId });
    await organizer.close();

    await signUpAndVerify(buyer, 'Bea Buyer', 'bea@example.test', password);
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('textbox', { name: 'Number of Entry tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer.getByLabel('Card number').waitFor();
    orderPath = new URL(buyer.url()).pathname;

    // SIGTERM, then the same data directory and port again: the page's live channel reconnects.
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', resolve));
    server.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    server = await startAdmit({ DATA_DIR: dataDir, PORT: port });

    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');

    // A reload asks the server again: one order, two tickets, the event sold out, nothing doubled.
    await buyer.goto(orderPath);
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Paid');
    await buyer.goto('/tickets');
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('region', { name: 'Tickets' }).getByText('Sold out').waitFor();
  });
});
