import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { catalogText } from './support/catalog';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

/** The number under a headline figure ("Views", "Revenue"…) of the dashboard. */
const figure = (page: Page, label: string) =>
  page
    .locator('dl div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

/**
 * What covers what in a list of bars: each text of each row where it is painted (clipped by the
 * boxes that hide their overflow), checked against the other rows' boxes and the other texts.
 */
const overlapsInBars = (page: Page, region: string, aName: string) =>
  page
    .getByRole('region', { name: region })
    .locator('div[aria-hidden="true"]', { hasText: aName })
    .evaluate((drawing) => {
      const rows = Array.from(drawing.firstElementChild!.children);
      const rowBoxes = rows.map((row) => row.getBoundingClientRect());
      const meet = (a: DOMRect, b: DOMRect) =>
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const texts: { row: number; node: Node; text: string; box: DOMRect }[] = [];
      rows.forEach((row, index) => {
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const painted of Array.from(range.getClientRects())) {
            let box = DOMRect.fromRect(painted);
            for (let parent = node.parentElement; parent && parent !== drawing; parent = parent.parentElement) {
              if (getComputedStyle(parent).overflow === 'visible') continue;
              const clip = parent.getBoundingClientRect();
              const left = Math.max(box.left, clip.left);
              const top = Math.max(box.top, clip.top);
              box = new DOMRect(left, top, Math.min(box.right, clip.right) - left, Math.min(box.bottom, clip.bottom) - top);
            }
            if (box.width > 0 && box.height > 0) texts.push({ row: index, node, text: node.textContent ?? '', box });
          }
        }
      });
      const overlaps: string[] = [];
      for (const one of texts) {
        rowBoxes.forEach((rowBox, index) => {
          if (index !== one.row && meet(one.box, rowBox)) overlaps.push(`“${one.text}” covers row ${index + 1}`);
        });
        for (const other of texts) {
          if (other.node !== one.node && meet(one.box, other.box)) overlaps.push(`“${one.text}” covers “${other.text}”`);
        }
      }
      return overlaps;
    });

describe('an organizer watches a campaign sell tickets on the dashboard, live', () => {
  // Views are counted every second here (a minute by default), so the dashboard catches up quickly.
  const journey = useJourney({
    env: { ANALYTICS_AGGREGATE_SECONDS: '1' },
  });
  let organizer: Page;
  let buyer: Page;
  let private_: Page;
  let eventId = '';
  let slug = '';
  let organizationId = '';
  const longTypeName = 'Backstage with the band after the show, drinks included';

  beforeAll(async () => {
    [organizer, buyer, private_] = await Promise.all([
      journey.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Berlin' }),
      journey.newPage({ viewport: { width: 390, height: 844 }, timezoneId: 'Europe/Berlin' }),
      // A browser set to send Global Privacy Control and Do-Not-Track with every request.
      journey.newPage({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: { 'Sec-GPC': '1', DNT: '1' } }),
    ]);
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.analytics@example.test' });
    const call = callAs(organizer);
    ({ organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' }));
    ({ eventId, slug } = await call<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Open Air at the Harbour',
      venue: 'Harbour Park',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-07-04T18:00',
      endsAtLocal: '2030-07-04T23:00',
      capacity: 50,
      currency: 'EUR',
    }));
    await call('events.addTicketType', { eventId, name: 'Standing', capacity: 40, price: 2000 });
    await call('events.addTicketType', { eventId, name: 'Crew', capacity: 5, price: 0 });
    await call('events.addTicketType', { eventId, name: longTypeName, capacity: 5, price: 9000 });
    await call('events.publish', { eventId });
  });

  it('opens the dashboard from the event page, empty before anyone came', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Sales and visitors' }).click();
    await organizer.getByRole('heading', { name: /Sales and visitors/, level: 1 }).waitFor();
    await expect.poll(() => figure(organizer, 'Views').textContent()).toBe('0');
    expect(await figure(organizer, 'Revenue').textContent()).toBe('€0.00');
    expect(await organizer.title()).toBe('Sales of Open Air at the Harbour · Admit');
  });

  it('counts a buyer who came from a newsletter link and paid, and not a browser that asked not to be tracked', async () => {
    await private_.goto(`/e/${slug}`);
    await private_.getByRole('heading', { name: 'Open Air at the Harbour', level: 1 }).waitFor();

    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno.analytics@example.test' });
    await buyer.goto(`/e/${slug}?utm_source=newsletter&utm_medium=email&utm_campaign=summer`);
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer.getByRole('heading', { name: 'Your order' }).waitFor();
    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');

    // Sales at once, views within the aggregation's second, on the page the organizer kept open.
    await expect.poll(() => figure(organizer, 'Tickets sold').textContent()).toBe('2');
    expect(await figure(organizer, 'Revenue').textContent()).toBe('€40.00');
    await expect.poll(() => figure(organizer, 'Views').textContent(), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => figure(organizer, 'Visitors').textContent()).toBe('1');
  });

  it('draws each ticket type’s name beside its bar, never over another row, at 1280 and 390 px and in Arabic', async () => {
    const typeRegion = 'By ticket type';
    await expect.poll(() => overlapsInBars(organizer, typeRegion, 'Crew')).toEqual([]);
    // A name too long for its column is cut, and its title says it whole.
    const longName = organizer.getByRole('region', { name: typeRegion }).locator(`[title="${longTypeName}"]`);
    await organizer.setViewportSize({ width: 390, height: 844 });
    expect(await overlapsInBars(organizer, typeRegion, 'Crew')).toEqual([]);
    expect(await longName.evaluate((name) => name.scrollWidth > name.clientWidth)).toBe(true);
    await organizer.setViewportSize({ width: 1280, height: 900 });

    const t = catalogText('ar');
    const arabic = await journey.newPage({ locale: 'ar', storageState: await organizer.context().storageState() });
    await arabic.goto(`/manage/events/${eventId}/analytics`);
    await expect.poll(() => overlapsInBars(arabic, t('analytics.byType'), 'Crew')).toEqual([]);
    await arabic.setViewportSize({ width: 390, height: 844 });
    expect(await overlapsInBars(arabic, t('analytics.byType'), 'Crew')).toEqual([]);
    await screenshots(arabic, 'analytics-event-ar');
    await arabic.context().close();
  });

  it('shows each chart as a table too: the funnel, the source that sold, and the ticket types', async () => {
    const funnel = organizer.getByRole('region', { name: 'From view to ticket' });
    await expect
      .poll(() => funnel.getByRole('row').allTextContents(), { timeout: 15_000 })
      .toEqual([
        'StepVisitorsOf those who viewed',
        'Viewed the event1100%',
        'Chose tickets1100%',
        'Started checkout1100%',
        'Paid1100%',
      ]);
    const sources = organizer.getByRole('region', { name: 'Where buyers came from' });
    await expect.poll(() => sources.getByRole('row').nth(1).textContent()).toBe('newslettersummer111100%');
    const types = organizer.getByRole('region', { name: 'By ticket type' });
    expect(await types.getByRole('row').allTextContents()).toEqual([
      'Ticket typeTickets soldRevenue',
      'Standing2€40.00',
      'Crew0€0.00',
      `${longTypeName}0€0.00`,
    ]);
    // The switch shows the table to everyone, with the keyboard.
    await types.getByText('Table').click();
    await types.getByRole('table').waitFor();
    await screenshots(organizer, 'analytics-event');
  });

  it('lists the event on the organization’s dashboard with its conversion', async () => {
    await organizer.goto(`/manage/orgs/${organizationId}`);
    await organizer.getByRole('link', { name: 'Sales and visitors' }).click();
    await organizer.getByRole('heading', { name: 'Sales and visitors of all events' }).waitFor();
    const row = organizer.getByRole('row', { name: /Open Air at the Harbour/ });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['1', '100%', '2', '€40.00', '0']);
    await screenshots(organizer, 'analytics-org');
  });
});
