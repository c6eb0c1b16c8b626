import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { catalogText } from './support/catalog';
import { useJourney } from './support/journey';
import { linkFromOutbox, readOutbox } from './support/outbox';
import { defaultPassword } from './support/sign-in';

// A person whose browser speaks Arabic or Japanese uses Admit from the first screen in that
// language: signs up, takes a ticket, finds it in My tickets and has it admitted at the door. The
// buttons are found by their words in that language's catalog, so a screen left in English fails.

const languages = [
  {
    locale: 'ar',
    direction: 'rtl',
    font: 'Noto Sans Arabic Variable',
    timezoneId: 'Asia/Dubai',
    person: { name: 'ليلى منصور', email: 'layla@example.test' },
    event: { title: 'أمسية العود في دبي', venue: 'دار الأوبرا، دبي', ticketType: 'دخول عام' },
  },
  {
    locale: 'ja',
    direction: 'ltr',
    font: 'Noto Sans JP Variable',
    timezoneId: 'Asia/Tokyo',
    person: { name: '山田 花子', email: 'hanako@example.test' },
    event: { title: '夏のジャズナイト', venue: '東京・ブルーノート', ticketType: '自由席' },
  },
] as const;

describe.each(languages)('a visitor whose browser speaks $locale', ({ locale, direction, font, timezoneId, person, event }) => {
  const journey = useJourney({ context: { locale, timezoneId } });
  const t = catalogText(locale);
  let page: Page;
  let slug = '';
  let eventId = '';
  let code = '';

  beforeAll(async () => {
    page = await journey.newPage();
  });

  /** The families of the web fonts the page has loaded so far. */
  const loadedFonts = () =>
    page.evaluate(async () => {
      await document.fonts.ready;
      const loaded: string[] = [];
      document.fonts.forEach((face) => {
        if (face.status === 'loaded') loaded.push(face.family.replaceAll('"', ''));
      });
      return loaded;
    });

  it('signs up on pages in that language, laid out in its direction and set in its font', async () => {
    await page.goto('/sign-up');
    await page.getByRole('heading', { name: t('signUp.title') }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([locale, direction]);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe(direction);
    await expect.poll(loadedFonts).toContain(font);
    await screenshots(page, `${locale}-sign-up`);

    await page.getByLabel(t('signUp.name')).fill(person.name);
    await page.getByRole('textbox', { name: t('signUp.email'), exact: true }).fill(person.email);
    await page.getByRole('textbox', { name: t('signUp.password'), exact: true }).fill(defaultPassword);
    await page.getByRole('button', { name: t('signUp.submit') }).click();
    await page.getByRole('heading', { name: t('signUp.checkInbox.title') }).waitFor();
    const verification = (await readOutbox(page)).find((message) => message.to === person.email)!;
    expect(verification.subject).not.toBe('Verify your email for Admit');
    await page.goto(await linkFromOutbox(page, person.email));
    await page.getByRole('button', { name: t('shell.account') }).waitFor();
  });

  it('takes a ticket on the public page, whose header is mirrored right to left in Arabic', async () => {
    const call = callAs(page);
    const { organizationId } = await call<{ organizationId: string }>('orgs.create', { name: person.name });
    ({ eventId, slug } = await call<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: event.title,
      venue: event.venue,
      // The Arabic event says it is written in Arabic; the Japanese one is left in English, the
      // default, as an organizer might: its page must still find a font for its words.
      ...(locale === 'ar' ? { contentLocale: locale } : {}),
      timeZone: timezoneId,
      startsAtLocal: '2030-07-10T19:00',
      endsAtLocal: '2030-07-10T22:00',
      capacity: 50,
    }));
    await call('events.addTicketType', { eventId, name: event.ticketType, capacity: 50, maxPerOrder: 4 });
    await call('events.publish', { eventId });

    await page.goto(`/e/${slug}`);
    await page.getByRole('heading', { name: event.title }).waitFor();
    // The wordmark starts the header: at the left in Japanese, at the right in Arabic.
    const brand = (await page.getByRole('banner').getByRole('link', { name: 'Admit' }).boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(brand.x + brand.width / 2 > width / 2).toBe(direction === 'rtl');
    await screenshots(page, `${locale}-event`);

    await page.getByRole('spinbutton', { name: t('picker.quantity', { name: event.ticketType }) }).fill('1');
    await page.getByRole('button', { name: t('picker.submit', { count: 1 }) }).click();
    await page.getByText(t('picker.done.title')).waitFor();
  });

  it('shows the ticket with its QR code in My tickets', async () => {
    await page.getByRole('link', { name: t('picker.done.link') }).click();
    await page.getByRole('heading', { name: t('myTickets.title') }).waitFor();
    await page.getByRole('img', { name: /.+/ }).first().waitFor();
    code = (await page.getByRole('code').first().textContent())!.trim();
    expect(code).toMatch(/^[\w-]{20,}$/);
    await page.getByText(event.title).first().waitFor();
    await screenshots(page, `${locale}-my-tickets`);
  });

  it('has the ticket admitted by the scanner, which says so in that language', async () => {
    await page.goto(`/manage/events/${eventId}/scan`);
    await page.getByRole('textbox', { name: t('scanner.device.label') }).fill('1');
    await page.getByRole('button', { name: t('scanner.device.save') }).click();
    const field = page.getByRole('textbox', { name: t('scanner.field') });
    await field.fill(code);
    await field.press('Enter');
    const verdict = page.getByTestId('scan-verdict');
    await expect.poll(() => verdict.getAttribute('data-result')).toBe('accepted');
    await verdict.getByText(t('scanner.result.accepted')).waitFor();
    await verdict.getByText(person.name).waitFor();
    await screenshots(page, `${locale}-scanner`);
  });

  it('shows the event in its own script and font to a visitor whose interface is in English', async () => {
    const visitor = await journey.newPage({ locale: 'en-GB' });
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('heading', { name: event.title }).waitFor();
    expect(await visitor.evaluate(() => document.documentElement.lang)).toBe('en');
    const fonts = () =>
      visitor.evaluate(async () => {
        await document.fonts.ready;
        const loaded: string[] = [];
        document.fonts.forEach((face) => {
          if (face.status === 'loaded') loaded.push(face.family.replaceAll('"', ''));
        });
        return loaded;
      });
    await expect.poll(fonts).toContain(font);
    await screenshots(visitor, `${locale}-event-in-english`);
  });
});
