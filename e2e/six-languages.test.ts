import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs, screenshots } from './support/browser';
import { catalogText } from './support/catalog';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

// Every main screen in each of Admit's six languages: the page says its language and direction,
// shows the catalog's words, no button's label is cut off, and axe-core finds no serious or
// critical WCAG 2.2 AA violation; then the same screens, and the buyer's and organizer's others, in
// the dark scheme a system asks for. With SCREENSHOT_DIR set, each screen is kept at phone and
// desktop widths for a person to look at.

const locales = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const;

describe('the main screens in six languages', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Paris' } });
  let page: Page;
  let eventId = '';
  let slug = '';
  let orderId = '';
  let organizationId = '';

  beforeAll(async () => {
    page = await journey.newPage();
    await signUpAndVerify(page, { name: 'Olga Organizer', email: 'olga@example.test' });
    const call = callAs(page);
    ({ organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Salle Pleyel' }));
    ({ eventId, slug } = await call<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Jazz night',
      venue: 'Salle Pleyel, Paris',
      timeZone: 'Europe/Paris',
      startsAtLocal: '2030-03-14T20:00',
      endsAtLocal: '2030-03-14T23:00',
      capacity: 100,
    }));
    const { ticketTypeId } = await call<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 100,
      price: 2500,
    });
    await call('events.publish', { eventId });
    ({ orderId } = await call<{ orderId: string }>('orders.create', { eventId, lines: [{ ticketTypeId, quantity: 1 }] }));
  });

  /** Labels of buttons whose text is wider than the button shows. */
  const clippedButtons = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.mantine-Button-label'))
        .filter((label) => label.offsetParent !== null && label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent),
    );

  it.each(locales)('shows the events, an event, My tickets, the event editor and the account in %s', async (locale) => {
    const t = catalogText(locale);
    await page.evaluate((chosen) => localStorage.setItem('admit.locale', chosen), locale);
    const screens: [string, string, string][] = [
      ['home', '/', t('home.upcoming')],
      ['event', `/e/${slug}`, 'Jazz night'],
      ['my-tickets', '/tickets', t('myTickets.title')],
      ['editor', `/manage/events/${eventId}`, t('editor.ticketTypes')],
      ['account', '/account', t('account.title')],
    ];
    for (const [name, path, heading] of screens) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        locale,
        locale === 'ar' ? 'rtl' : 'ltr',
      ]);
      await page.setViewportSize({ width: 390, height: 900 });
      expect(await clippedButtons(), `${name} at 390 px`).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await accessibilityViolations(page), `${name} in ${locale}`).toEqual([]);
      await screenshots(page, `languages-${locale}-${name}`);
    }
  });

  it('follows the system into the dark scheme, every screen as readable as in the light one', async () => {
    await page.evaluate(() => localStorage.setItem('admit.locale', 'en'));
    await page.emulateMedia({ colorScheme: 'dark' });
    // The scanner asks once for this device's name; its desk is the screen looked at below.
    await page.goto(`/manage/events/${eventId}/scan`);
    await page.getByRole('textbox', { name: 'Scanner name' }).fill('Door 1');
    await page.getByRole('button', { name: 'Start scanning' }).click();
    const screens: [string, string, string][] = [
      ['home', '/', 'Upcoming events'],
      ['event', `/e/${slug}`, 'Jazz night'],
      ['order', `/orders/${orderId}`, 'Your order'],
      ['my-tickets', '/tickets', 'My tickets'],
      ['organization', `/manage/orgs/${organizationId}`, 'Salle Pleyel'],
      ['editor', `/manage/events/${eventId}`, 'Ticket types'],
      ['event-orders', `/manage/events/${eventId}/orders/${orderId}`, 'Payment'],
      ['scanner', `/manage/events/${eventId}/scan`, 'Check-in'],
      ['analytics', `/manage/events/${eventId}/analytics`, 'From view to ticket'],
      ['account', '/account', 'Account'],
      ['accessibility', '/accessibility', 'Accessibility'],
    ];
    for (const [name, path, heading] of screens) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme), name).toBe('dark');
      // The page itself is dark, not only its words light: black's luminance is 0, white's 1.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), name).toBe('rgb(36, 36, 36)');
      expect(await accessibilityViolations(page), `${name} in the dark scheme`).toEqual([]);
      await screenshots(page, `dark-${name}`);
    }

    // A form's errors, red on dark, are as readable as the rest.
    const visitor = await journey.newPage({ colorScheme: 'dark' });
    await visitor.goto('/sign-up');
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.getByText('This field is required.').first().waitFor();
    expect(await accessibilityViolations(visitor), 'sign-up errors in the dark scheme').toEqual([]);
    await screenshots(visitor, 'dark-sign-up-errors');
    await visitor.context().close();

    // The system turns back to light: the page follows without a reload.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('light');
  });
});
