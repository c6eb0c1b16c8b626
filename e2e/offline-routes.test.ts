import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

/** A route of the app, what shows it opened with its rows, and the live queries it keeps offline. */
interface Route {
  path: string;
  heading: string | RegExp;
  /** A text only the route's rows can show (its heading may be static). */
  shows?: string;
  /** The tab's title, for the pages that name it. */
  title?: string;
  saves: string[];
}

/** What the error boundary and a failed page say: neither may show on a screen already seen. */
const errorScreens = /^(Something went wrong|This page could not be shown|This could not be shown)/;

/**
 * The names of the live queries whose rows the offline cache in IndexedDB holds, as they arrived at
 * `since` or later (a page's clock): a copy from an earlier visit (an empty list before the event
 * existed) does not count.
 */
const savedQueries = (page: Page, since = 0) =>
  page.evaluate(
    (after) =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return resolve([]);
          const store = db.transaction('keyval').objectStore('keyval');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onerror = () => resolve([]);
          values.onsuccess = () =>
            resolve(
              keys.result.flatMap((key, index) => {
                const name = String(key);
                if (!name.startsWith('admit.live:') || name.includes('#')) return [];
                const saved = values.result[index] as { dataUpdatedAt?: number } | undefined;
                if ((saved?.dataUpdatedAt ?? 0) < after) return [];
                return [JSON.parse(name.slice('admit.live:'.length))[1] as string];
              }),
            );
        };
      }),
    since,
  );

async function expectOpened(page: Page, route: Route) {
  await page.getByRole('heading', { name: route.heading }).first().waitFor();
  if (route.shows) {
    await page
      .getByText(route.shows)
      .first()
      .waitFor()
      .catch(async (error: Error) => {
        const shown = (
          await page
            .locator('body')
            .innerText()
            .catch(() => '')
        ).slice(0, 300);
        throw new Error(`${route.path} does not show “${route.shows}” but “${shown}”: ${error.message}`);
      });
  }
  if (route.title) await expect.poll(() => page.title()).toBe(route.title);
  expect(await page.getByText(errorScreens).count(), `an error on ${route.path}`).toBe(0);
}

describe('an organizer who has seen every screen once opens each again with no network', () => {
  const journey = useJourney({
    context: { timezoneId: 'Europe/Berlin' },
  });
  let organizer: Page;
  let routes: Route[] = [];
  let importPath = '';

  beforeAll(async () => {
    organizer = await journey.newPage();
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
    const { ticketTypeId } = await call('events.addTicketType', { eventId, name: 'Entry', capacity: 50, maxPerOrder: 4 });
    await call('events.publish', { eventId });
    const { orderId } = await call('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 2 }] });
    // The scanner asks for this device's name once; the device keeps it.
    await organizer.goto(`/manage/events/${eventId}/scan`);
    await organizer.getByRole('textbox', { name: 'Scanner name' }).fill('Door 1');
    await organizer.getByRole('button', { name: 'Start scanning' }).click();
    const event = `/manage/events/${eventId}`;
    importPath = `${event}/import`;
    routes = [
      {
        path: '/',
        heading: /^Tickets for what's on/,
        shows: 'Basement Blues',
        title: 'Events · Admit',
        saves: ['events.published'],
      },
      { path: '/tickets', heading: 'My tickets', shows: 'Basement Blues', title: 'My tickets · Admit', saves: ['tickets.mine'] },
      { path: '/account', heading: 'Your account', title: 'Your account · Admit', saves: [] },
      {
        path: '/manage',
        heading: 'Your organizations',
        shows: 'Cellar Club',
        title: 'Organizations · Admit',
        saves: ['orgs.mine'],
      },
      {
        path: `/manage/orgs/${organizationId}`,
        heading: 'Events of Cellar Club',
        shows: 'Basement Blues',
        title: 'Events of Cellar Club · Admit',
        saves: ['events.forOrg'],
      },
      {
        path: `/manage/orgs/${organizationId}/members`,
        heading: 'Members of Cellar Club',
        title: 'Members of Cellar Club · Admit',
        saves: ['orgs.members'],
      },
      { path: `/e/${slug}`, heading: 'Basement Blues', saves: ['events.public'] },
      { path: `/orders/${orderId}`, heading: 'Your order', saves: ['orders.mine'] },
      { path: event, heading: 'Basement Blues', shows: 'Entry', saves: ['events.managed', 'orders.forEvent'] },
      { path: `${event}/orders/${orderId}`, heading: 'Olivia Organizer', saves: ['orders.detail'] },
      {
        path: `${event}/scan`,
        heading: 'Check-in',
        shows: '0 of 2 checked in',
        title: 'Check-in: Basement Blues · Admit',
        saves: ['checkin.kit', 'checkin.attendees'],
      },
      { path: importPath, heading: 'Import a guest list', title: 'Import a guest list · Admit', saves: [] },
    ];
  });

  it('opens every route once with the network on, keeping its rows', async () => {
    for (const route of routes) {
      const since = await organizer.evaluate(() => Date.now());
      await organizer.goto(route.path);
      await expectOpened(organizer, route);
      // Rows are written a second after they arrive: the next page waits for this visit's rows to be
      // written, as a person would, before the page is left (a page unloading may not finish a write).
      await expect.poll(() => savedQueries(organizer, since), { timeout: 5_000 }).toEqual(expect.arrayContaining(route.saves));
    }
    await organizer.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  });

  it('opens every route again after a reload with the network off, with no error screen', async () => {
    await organizer.context().setOffline(true);
    for (const route of routes) {
      await organizer.goto(route.path);
      await organizer.reload();
      await expectOpened(organizer, route);
    }
    // What only the server knows (sign-in methods, sessions) waits for the network, saying so.
    await organizer.goto('/account');
    await expect.poll(() => organizer.getByText('Shown once you are back online.').count()).toBe(2);
    await screenshots(organizer, 'account-offline');
    await organizer.goto(importPath);
    await organizer.getByText('Shown once you are back online.').waitFor();
    await organizer.context().setOffline(false);
  });
});

describe('a page whose code cannot be loaded says so in the reader’s language and offers a way back', () => {
  const journey = useJourney();
  let visitor: Page;
  /** Whether the server's answers for these pages' code get through. */
  let serving = false;
  const errorScreen = () =>
    visitor.getByRole('alert').filter({ has: visitor.getByRole('heading', { name: 'This page could not be shown' }) });

  beforeAll(async () => {
    // No service worker: a page's code comes from the server, as on a first visit.
    visitor = await journey.newPage({ serviceWorkers: 'block' });
    await visitor.route(/\/assets\/(forgot-password|sign-in)-page-[^/]*\.js$/, (route) =>
      serving ? route.continue() : route.fulfill({ status: 503, body: 'Service Unavailable' }),
    );
  });

  it('shows a styled error with a retry that opens the page once its code loads', async () => {
    await visitor.goto('/forgot-password');
    // The router reloads once in case a new version replaced the code; the second failure is shown.
    await errorScreen().getByText('Something went wrong while opening it. Try again, or go back to the start page.').waitFor();
    expect(await visitor.title()).toBe('Error · Admit');

    serving = true;
    await errorScreen().getByRole('button', { name: 'Try again' }).click();
    await visitor.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(await errorScreen().count()).toBe(0);
  });

  it('says when the network goes that a page needs it the first time, and leads home', async () => {
    serving = false;
    await visitor.goto('/sign-in');
    await errorScreen()
      .getByText(/^Something went wrong while opening it/)
      .waitFor();
    await visitor.context().setOffline(true);
    await errorScreen()
      .getByText(/^You are offline\. A page needs the network the first time it is opened on this device/)
      .waitFor();
    await screenshots(visitor, 'route-error-offline');

    await visitor.context().setOffline(false);
    await errorScreen().getByRole('link', { name: 'Go to the start page' }).click();
    await visitor.getByRole('heading', { name: /^Tickets for what's on/ }).waitFor();
  });
});
