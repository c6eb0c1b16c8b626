import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

/**
 * What scrolls sideways on the page: the page itself, and every box that scrolls its overflow (a
 * table's scroller among them), each by its accessible label or tag.
 */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const page = document.scrollingElement!;
    if (page.scrollWidth > page.clientWidth) found.push(`the page (${page.scrollWidth} > ${page.clientWidth})`);
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const { overflowX } = getComputedStyle(element);
      if ((overflowX === 'auto' || overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
        found.push(`${element.getAttribute('aria-label') ?? element.tagName} (${element.scrollWidth} > ${element.clientWidth})`);
      }
    }
    for (const table of Array.from(document.querySelectorAll('table'))) {
      if (table.scrollWidth > table.clientWidth + 1) found.push(`table ${table.getAttribute('aria-label') ?? ''}`);
    }
    return found;
  });

/** Whether the whole of an element is inside the window's width. */
const onScreen = async (page: Page, locator: ReturnType<Page['locator']>) => {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
};

describe('an organizer runs an event from a phone', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let eventId = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.phone@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId } = await call<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Late Jazz at the Harbour',
      venue: 'Harbour Hall, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 120,
      currency: 'EUR',
    }));
    const { ticketTypeId } = await call<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Guest list',
      capacity: 20,
      price: 0,
    });
    await call('events.addTicketType', { eventId, name: 'Standing with a drink at the bar', capacity: 100, price: 2500 });
    await call('codes.create', {
      eventId,
      code: 'FRIENDS-OF-THE-HARBOUR',
      discount: { kind: 'percent', percent: 10 },
      maxUses: 50,
    });
    await call('events.publish', { eventId });
    await call('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 2 }] });
  });

  it('shows the event page without sideways scrolling, every row’s action and the order’s status and total on screen', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz at the Harbour', level: 1 }).waitFor();
    const orders = organizer.getByRole('table', { name: 'Orders' });
    const order = orders.getByRole('row', { name: /Olivia Organizer/ });
    await order.waitFor();
    expect(await sidewaysScrollers(organizer)).toEqual([]);

    const typeMenu = organizer.getByRole('button', { name: 'Change “Standing with a drink at the bar”' });
    expect(await onScreen(organizer, typeMenu)).toBe(true);
    for (const cell of [order.getByRole('cell', { name: 'Free' }), order.getByText('Complete')]) {
      expect(await onScreen(organizer, cell)).toBe(true);
    }
    await typeMenu.click();
    await organizer.getByRole('menuitem', { name: 'Hide from buyers' }).waitFor();
    await organizer.keyboard.press('Escape');
    // Closed, not closing: the step's audit reads the page as it stays.
    await organizer.getByRole('menu').waitFor({ state: 'hidden' });
    await screenshots(organizer, 'organizer-phone-event');
  });

  it('opens the event’s actions menu with the keyboard, the final ones apart at its end', async () => {
    const actions = organizer.getByRole('button', { name: 'Event actions' });
    await actions.focus();
    await organizer.keyboard.press('Enter');
    const menu = organizer.getByRole('menu');
    await menu.waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.slice(0, 7)).toEqual([
      'Edit details',
      'Sales and visitors',
      'Codes',
      'Questions',
      'Waiting list',
      'Transfers',
      'Message attendees',
    ]);
    expect(items.at(-1)).toBe('Cancel event');
    await menu.getByText('Cannot be undone').waitFor();
    // The arrow keys walk the items.
    const focused = () => organizer.evaluate(() => document.activeElement?.textContent);
    await organizer.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Edit details');
    await organizer.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Sales and visitors');
    await organizer.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect.poll(focused).toBe('Event actions');

    await actions.click();
    await organizer.getByRole('menuitem', { name: 'Codes' }).click();
    await organizer.getByRole('heading', { name: /Discount and access codes/, level: 1 }).waitFor();
  });

  it('lists the codes without sideways scrolling, each code’s Copy link on screen', async () => {
    const copy = organizer.getByRole('button', { name: 'Copy link of FRIENDS-OF-THE-HARBOUR' });
    await copy.waitFor();
    expect(await sidewaysScrollers(organizer)).toEqual([]);
    expect(await onScreen(organizer, copy)).toBe(true);
    await screenshots(organizer, 'organizer-phone-codes');
  });
});
