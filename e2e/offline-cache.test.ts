import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

/** Whether the offline cache in IndexedDB holds a live query of this name (what a reload offline will show). */
const cacheHolds = (page: Page, queryName: string) =>
  page.evaluate(
    (queryName) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return resolve(false);
          const read = db.transaction('keyval').objectStore('keyval').getAllKeys();
          read.onerror = () => resolve(false);
          read.onsuccess = () =>
            resolve(read.result.some((key) => String(key).startsWith('admit.live:') && String(key).includes(`"${queryName}"`)));
        };
      }),
    queryName,
  );

describe('a buyer opens their tickets with no network, from the offline cache', () => {
  const journey = useJourney();
  let buyer: Page;
  let eventPath = '';

  beforeAll(async () => {
    const organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Cellar Club' });
    const { eventId, slug } = await call('events.create', {
      organizationId,
      title: 'Basement Blues',
      venue: 'The Cellar',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-02-01T20:00',
      endsAtLocal: '2030-02-01T23:00',
      capacity: 50,
    });
    await call('events.addTicketType', { eventId, name: 'Entry', capacity: 50, maxPerOrder: 4 });
    await call('events.publish', { eventId });
    eventPath = `/e/${slug}`;
    await organizer.close();
    buyer = await journey.newPage({ timezoneId: 'Europe/Berlin' });
  });

  it('shows my tickets with their QR codes after a reload with the network off, marked as saved data', async () => {
    await signUpAndVerify(buyer, { name: 'Bea Buyer', email: 'bea@example.test' });
    await buyer.goto(eventPath);
    await buyer.getByRole('spinbutton', { name: 'Number of Entry tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer.getByRole('link', { name: 'Show my tickets' }).click();
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
    const codes = await buyer.getByRole('code').allTextContents();
    // The app shell is in the service worker's cache, the rows in IndexedDB. The worker takes
    // control once it has fetched the whole shell: on a machine busy with the other suites (CI),
    // that took more than 15 s.
    await buyer.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
    await expect.poll(() => cacheHolds(buyer, 'tickets.mine'), { timeout: 5_000 }).toBe(true);

    await buyer.context().setOffline(true);
    await buyer.reload();

    await buyer.getByRole('heading', { name: 'My tickets' }).waitFor();
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
    expect(await buyer.getByRole('code').allTextContents()).toEqual(codes);
    await buyer.getByText(/^Offline — showing saved data as of \d{1,2}:\d\d\s[AP]M$/).waitFor({ timeout: 10_000 });

    // The event page was seen too: it opens offline, from the same cache.
    await buyer.goto(eventPath);
    await buyer.getByRole('heading', { name: 'Basement Blues' }).waitFor();
  });

  it('goes back to live data when the network returns', async () => {
    await buyer.context().setOffline(false);
    await buyer.getByText(/^Offline — /).waitFor({ state: 'detached', timeout: 20_000 });
    await buyer.getByRole('region', { name: 'Tickets' }).getByText('48 left').waitFor();
  });

  it('forgets the saved data when the person signs out', async () => {
    await buyer.goto('/tickets');
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
    await buyer.getByRole('button', { name: 'Account menu' }).click();
    await buyer.getByRole('menuitem', { name: 'Sign out' }).click();
    await buyer.getByRole('link', { name: 'Sign in' }).first().waitFor();
    await expect.poll(() => cacheHolds(buyer, 'tickets.mine')).toBe(false);

    await buyer.context().setOffline(true);
    await buyer.goto('/tickets');
    await buyer.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    expect(await buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(0);
    await buyer.context().setOffline(false);
  });
});
