import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

// A visitor on a slow phone opens an event from a link: the server sends the page drawn as they will
// see it (the event list and an event's page), and the app, once its scripts are in, takes that page
// over as is: the same elements, no second drawing, then live (decision 0049).

/**
 * Notes, from the page's first instant, the first heading and the first field (the picker's) the
 * server sent, and whether anything removed either.
 */
function watchFirstView() {
  const seen = { removed: false, violations: [] as string[] };
  (window as unknown as { __firstView: typeof seen }).__firstView = seen;
  // An inline script the policy blocked (zod's probe for eval, blocked too, is of no concern here).
  document.addEventListener('securitypolicyviolation', (event) => {
    if (event.blockedURI === 'inline') seen.violations.push(`${event.violatedDirective}: ${event.sample}`);
  });
  document.addEventListener('DOMContentLoaded', () => {
    const heading = document.querySelector('#root h1');
    const field = document.querySelector('#root input');
    Object.assign(window, { __firstHeading: heading, __firstField: field });
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.removedNodes))
          for (const sent of [heading, field]) if (sent && (node === sent || node.contains(sent))) seen.removed = true;
    }).observe(document.getElementById('root')!, { childList: true, subtree: true });
  });
}

/**
 * Whether the heading and the first field on screen are still the elements the server sent, never
 * removed, and no policy was broken.
 */
async function tookOver(page: Page) {
  return page.evaluate(() => {
    const state = window as unknown as {
      __firstHeading: Element | null;
      __firstField: Element | null;
      __firstView: { removed: boolean; violations: string[] };
    };
    return {
      sameHeading: state.__firstHeading !== null && state.__firstHeading === document.querySelector('#root h1'),
      sameField: state.__firstField !== null && state.__firstField === document.querySelector('#root input'),
      removed: state.__firstView.removed,
      violations: state.__firstView.violations,
    };
  });
}

describe('a visitor opening an event from a link reads it before the app’s scripts arrive', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let slug = '';
  let draftSlug = '';
  let eventId = '';

  beforeAll(async () => {
    organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: 'Basement Club' });
    const details = {
      organizationId,
      venue: 'Basement Club, Leipzig',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-01-10T19:00',
      endsAtLocal: '2030-01-10T23:00',
      capacity: 100,
    };
    ({ eventId, slug } = await call<{ eventId: string; slug: string }>('events.create', {
      ...details,
      title: 'Basement Blues',
      description: 'Three bands, one long night of blues.',
    }));
    await call('events.addTicketType', { eventId, name: 'Standing', capacity: 100, maxPerOrder: 4, price: 0 });
    await call('events.publish', { eventId });
    ({ slug: draftSlug } = await call<{ slug: string }>('events.create', { ...details, title: 'Secret Session' }));
  });

  it('sends the event’s page drawn, with its time, place, places left and tickets, to a browser that runs no script', async () => {
    const visitor = await journey.newPage({ javaScriptEnabled: false });
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('heading', { name: 'Basement Blues', level: 1 }).waitFor();
    await visitor.getByText('Thu, Jan 10, 2030, 7:00 – 11:00 PM GMT+1').waitFor();
    await visitor.getByText('Basement Club, Leipzig').waitFor();
    await visitor.getByText('100 places left').waitFor();
    await visitor.getByText('Three bands, one long night of blues.').waitFor();
    await visitor.getByRole('region', { name: 'Tickets' }).getByText('Standing').waitFor();
    expect(await visitor.getAttribute('html', 'lang')).toBe('en');
    await screenshots(visitor, 'first-view-no-script');
    // axe-core needs scripts: the same page, taken over by the app, is audited in the next steps.
    await visitor.context().close();
  });

  it('draws it in the visitor’s language, and the event list too', async () => {
    const visitor = await journey.newPage({ javaScriptEnabled: false, locale: 'de-DE' });
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('heading', { name: 'Basement Blues', level: 1 }).waitFor();
    await visitor.getByText('Wann', { exact: true }).waitFor();
    expect(await visitor.getAttribute('html', 'lang')).toBe('de');
    await visitor.goto('/');
    await visitor
      .getByRole('link', { name: /Basement Blues/ })
      .first()
      .waitFor();
    expect(await visitor.getByText('Secret Session').count()).toBe(0);
    await visitor.context().close();
  });

  it('takes the page over as it was sent, without drawing it again, and then it is live and takes orders', async () => {
    const visitor = await journey.newPage();
    const errors: string[] = [];
    visitor.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    visitor.on('pageerror', (error) => errors.push(error.message));
    await visitor.addInitScript(watchFirstView);
    await visitor.goto(`/e/${slug}`);
    // Taken over: the picker answers a click.
    await visitor.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('2');
    await visitor.getByRole('button', { name: 'Continue with email' }).waitFor();
    expect(await tookOver(visitor)).toEqual({ sameHeading: true, sameField: true, removed: false, violations: [] });
    expect(errors).toEqual([]);

    // Live: another person's order shows without a reload.
    await callAs(organizer)('orders.create', { eventId, lines: [{ ticketTypeId: await standingId(), quantity: 3 }] });
    await visitor.getByText('97 places left').waitFor();
    await screenshots(visitor, 'first-view-taken-over');
  });

  it('writes the time as the reader’s region does: an English reader in Britain reads 10 Jan 2030, 19:00, drawn and taken over alike', async () => {
    const visitor = await journey.newPage({ locale: 'en-GB' });
    const errors: string[] = [];
    visitor.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    await visitor.addInitScript(watchFirstView);
    const sent = await (await visitor.request.get(`/e/${slug}`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text();
    expect(sent).toMatch(/Thu, 10 Jan 2030, 19:00\s?–\s?23:00/);
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('1');
    await visitor.getByText(/Thu, 10 Jan 2030, 19:00\s?–\s?23:00/).waitFor();
    expect(await tookOver(visitor)).toMatchObject({ sameHeading: true, removed: false });
    expect(errors).toEqual([]);
    await visitor.goto('/');
    await visitor
      .getByText(/10 Jan 2030/)
      .first()
      .waitFor();
  });

  it('shows the event to a visitor whose scripts never arrive, in their system’s dark scheme', async () => {
    const visitor = await journey.newPage({ colorScheme: 'dark' });
    await visitor.route('**/assets/*.js', (route) => route.abort());
    await visitor.addInitScript(watchFirstView);
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('heading', { name: 'Basement Blues', level: 1 }).waitFor();
    expect(await visitor.getAttribute('html', 'data-mantine-color-scheme')).toBe('dark');
    expect((await tookOver(visitor)).violations).toEqual([]);
  });

  it('leaves a draft’s page, which a visitor may not see, to the app', async () => {
    const visitor = await journey.newPage();
    const response = await visitor.request.get(`/e/${draftSlug}`);
    expect(await response.text()).toContain('<div id="root"></div>');
    await visitor.goto(`/e/${draftSlug}`);
    await visitor.getByText('We could not find that. It may have been removed.').waitFor();
  });

  async function standingId() {
    const response = await organizer.request.get(`/e/${slug}`);
    const data = /<script type="application\/json" id="admit-first-view">(.*?)<\/script>/s.exec(await response.text())![1]!;
    const live = (JSON.parse(data) as { live: { query: string; rows: { id: string; name: string }[] }[] }).live;
    return live.find((entry) => entry.query === 'events.availability')!.rows.find((row) => row.name === 'Standing')!.id;
  }
});
