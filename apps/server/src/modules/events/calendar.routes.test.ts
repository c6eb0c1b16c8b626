import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from './schema';

let t: TestApp;
let published: { eventId: string; slug: string };
let draftSlug = '';

const getCalendar = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });
/** The file's lines with folded ones joined again, as a calendar app reads them. */
const lines = (body: string) => body.replace(/\r\n /g, '').split('\r\n');

beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.signUp('Olga Organizer');
  published = await createPublishedEvent(t, owner.cookie);
  await t.db
    .update(event)
    .set({ translations: { fr: { title: 'Soirée jazz', venue: 'Le Caveau, Berlin', description: 'Portes à 19 h.' } } })
    .where(eq(event.id, published.eventId));
  const { organizationId } = await createOrgAs(t, owner.cookie);
  ({ slug: draftSlug } = await createEventAs(t, owner.cookie, organizationId, { title: 'Not yet announced' }));
});
afterAll(() => t?.close());

describe('GET /files/events/:slug/calendar.ics', () => {
  it('gives anyone a published event as a calendar file, in UTC with the event’s zone and a link back', async () => {
    const response = await getCalendar(`/files/events/${published.slug}/calendar.ics`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${published.slug}.ics"`);
    const entry = lines(response.body);
    expect(entry).toContain('SUMMARY:Jazz night');
    // 19:00 in Berlin in January is 18:00 UTC.
    expect(entry).toContain('DTSTART:20300110T180000Z');
    expect(entry).toContain('X-WR-TIMEZONE:Europe/Berlin');
    expect(entry).toContain(`URL:http://localhost:3000/e/${published.slug}`);
    expect(entry).toContain(`UID:${published.eventId}@localhost`);
  });

  it('speaks the language asked for when the event has it, and the visitor’s otherwise', async () => {
    const french = lines((await getCalendar(`/files/events/${published.slug}/calendar.ics?lang=fr`)).body);
    expect(french).toContain('SUMMARY:Soirée jazz');
    expect(french).toContain('LOCATION:Le Caveau\\, Berlin');
    const byBrowser = lines(
      (await getCalendar(`/files/events/${published.slug}/calendar.ics`, { 'accept-language': 'fr-CH' })).body,
    );
    expect(byBrowser).toContain('SUMMARY:Soirée jazz');
    const japanese = lines((await getCalendar(`/files/events/${published.slug}/calendar.ics?lang=ja`)).body);
    expect(japanese).toContain('SUMMARY:Jazz night');
  });

  it('says no such event for a draft, an unknown slug and a slug no event could have', async () => {
    for (const slug of [draftSlug, 'no-such-event', 'a%00b']) {
      const response = await getCalendar(`/files/events/${slug}/calendar.ics`);
      expect(response.statusCode, slug).toBe(404);
      expect(response.body).not.toContain('Not yet announced');
    }
    // Longer than any path parameter the server reads: refused before the route.
    const long = await getCalendar(`/files/events/${'x'.repeat(200)}/calendar.ics`);
    expect(long.statusCode).toBeGreaterThanOrEqual(400);
    expect(long.statusCode).toBeLessThan(500);
  });

  it('takes a language it does not know for no language at all', async () => {
    const response = await getCalendar(`/files/events/${published.slug}/calendar.ics?lang=xx&lang=fr`);
    expect(response.statusCode).toBe(200);
    expect(lines(response.body)).toContain('SUMMARY:Jazz night');
  });
});
