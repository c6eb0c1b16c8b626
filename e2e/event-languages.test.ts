import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { catalogText } from './support/catalog';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('an organizer who adds French to an English event, and visitors who read French and Japanese', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let eventId = '';
  let slug = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.languages@example.test' });
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Harbour Jazz',
      venue: 'Harbour Hall',
      contentLocale: 'en',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    await callAs(organizer)('events.addTicketType', { eventId, name: 'Standing', capacity: 40 });
    await callAs(organizer)('events.publish', { eventId });
  });

  it('adds French in the event editor: the title, the venue and the ticket type’s name, each marked as French', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    const card = organizer.getByRole('region', { name: 'Languages' });
    await card.getByRole('button', { name: 'Add a language' }).click();
    await organizer.getByRole('menuitem', { name: 'French' }).click();

    const french = card.getByRole('group', { name: 'French' });
    const title = french.getByRole('textbox', { name: 'Title' });
    // The keyboard lands in the new language's first field.
    await expect.poll(() => title.evaluate((input) => input === document.activeElement)).toBe(true);
    await organizer.keyboard.type('Jazz du port');
    expect(await title.getAttribute('lang')).toBe('fr');
    await french.getByRole('textbox', { name: 'Venue' }).fill('Salle du port');
    await french.getByRole('textbox', { name: 'Name of the ticket type “Standing”' }).fill('Debout');
    await screenshots(organizer, 'event-languages-editor');
    await card.getByRole('button', { name: 'Save languages' }).click();

    await organizer.getByText('Languages saved.').waitFor();
    await organizer.getByText('changed the languages of the event').waitFor();
    // Saved, the card shows what the server holds.
    await organizer.reload();
    await expect.poll(() => french.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Jazz du port');
  });

  it('shows a visitor whose browser speaks French the event in French, and in English through the page’s switch', async () => {
    const visitor = await journey.newPage({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    // What a chat app reads of a shared link: the built page, with the event in its head.
    const shared = await (await visitor.request.get(`/e/${slug}`, { headers: { 'accept-language': 'fr-FR' } })).text();
    expect(shared).toContain('<title>Jazz du port · Admit</title>');
    expect(shared).toContain('<meta property="og:title" content="Jazz du port" />');
    expect(shared).toContain('"@type":"Event"');
    await visitor.goto('/');
    await visitor.getByRole('link', { name: 'Jazz du port' }).click();

    const heading = visitor.getByRole('heading', { level: 1 });
    await visitor.getByRole('heading', { name: 'Jazz du port', level: 1 }).waitFor();
    expect(await heading.getAttribute('lang')).toBe('fr');
    await visitor.getByText('Salle du port').waitFor();
    await visitor.getByText('Debout').waitFor();
    expect(await visitor.evaluate(() => document.documentElement.lang)).toBe('fr');
    await screenshots(visitor, 'event-languages-public-fr');

    const english = visitor.getByRole('link', { name: 'English', exact: true });
    expect(await english.getAttribute('lang')).toBe('en');
    await english.click();
    await visitor.getByRole('heading', { name: 'Harbour Jazz', level: 1 }).waitFor();
    expect(await heading.getAttribute('lang')).toBe('en');
    await visitor.getByText('Harbour Hall').waitFor();
    await visitor.getByText('Standing', { exact: true }).waitFor();
    expect(new URL(visitor.url()).searchParams.get('lang')).toBe('en');
    expect(await english.getAttribute('aria-current')).toBe('page');
    // Only the event's words changed: the interface still speaks French.
    expect(await visitor.evaluate(() => document.documentElement.lang)).toBe('fr');

    // The choice is in the address: a reload, or the link shared, shows English again.
    await visitor.reload();
    await visitor.getByRole('heading', { name: 'Harbour Jazz', level: 1 }).waitFor();
    await visitor.getByRole('link', { name: 'Français', exact: true }).click();
    await visitor.getByRole('heading', { name: 'Jazz du port', level: 1 }).waitFor();
  });

  it('shows a visitor whose browser speaks Japanese the event in its main language', async () => {
    const visitor = await journey.newPage({ locale: 'ja-JP' });
    await visitor.goto(`/e/${slug}`);

    const heading = visitor.getByRole('heading', { name: 'Harbour Jazz', level: 1 });
    await heading.waitFor();
    expect(await heading.getAttribute('lang')).toBe('en');
    await visitor.getByText('Standing', { exact: true }).waitFor();
    expect(await visitor.getByText('Jazz du port').count()).toBe(0);
    expect(await visitor.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(await visitor.getByRole('link', { name: 'English', exact: true }).getAttribute('aria-current')).toBe('page');
  });

  it('shows a buyer who reads French the event in French in My tickets and on the order, and in English once they switch, which their account keeps', async () => {
    const buyer = await journey.newPage({ locale: 'en-GB' });
    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno.languages@example.test' });
    await buyer.evaluate(() => localStorage.setItem('admit.locale', 'fr'));
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('heading', { name: 'Jazz du port', level: 1 }).waitFor();
    const t = catalogText('fr');
    await buyer.getByRole('spinbutton', { name: t('picker.quantity', { name: 'Debout' }) }).fill('1');
    await buyer.getByRole('button', { name: t('picker.submit', { count: 1 }) }).click();
    await buyer.getByRole('link', { name: t('picker.done.link') }).click();

    await buyer.getByRole('link', { name: 'Jazz du port' }).waitFor();
    await buyer.getByText('Salle du port').waitFor();
    await buyer.getByText('Debout', { exact: true }).waitFor();
    await screenshots(buyer, 'event-languages-my-tickets-fr');
    await buyer.getByRole('link', { name: t('myTickets.order') }).click();
    await buyer.getByRole('link', { name: 'Jazz du port' }).waitFor();
    // The order's line and its ticket's row under "Who is coming?".
    await expect.poll(() => buyer.getByText('Debout', { exact: true }).count()).toBe(2);

    // The interface in English: the event in its main language, at once.
    // The account keeps the choice, for the emails sent to the buyer later.
    const saved = buyer.waitForRequest(
      (request) => request.url().endsWith('/fn/account.setLanguage') && request.postData()?.includes('"en"') === true,
    );
    await buyer.getByRole('combobox', { name: t('shell.language') }).selectOption('en');
    expect((await (await saved).response())?.status()).toBe(200);
    await buyer.getByRole('link', { name: 'Harbour Jazz' }).waitFor();
    await expect.poll(() => buyer.getByText('Standing', { exact: true }).count()).toBe(2);
  });
});
