import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setEventContent } from '@admit/shared/event-content';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTicketTypeAs, createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from './schema';

// A link to an event's page pasted into a chat, or found by a search engine, shows the event: the
// HTML the server sends for /e/<slug> carries its title, description, Open Graph and Twitter tags
// and its schema.org Event with offers, before any script runs.

let t: TestApp;
let dist: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
const appPage = `<!doctype html><html lang="en"><head><meta charset="UTF-8" />
<meta name="description" content="Admit: tickets for events and check-in at the door." />
<title>Admit</title></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>`;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'admit-head-'));
  writeFileSync(path.join(dist, 'index.html'), appPage);
  t = await createTestApp({ webDistDir: dist });
  owner = await t.signUp('Olga Organizer');
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const page = (slug: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/e/${slug}`, headers });

/** The page's meta tags by name or property, and its JSON-LD. */
function headOf(html: string) {
  const meta = new Map(
    [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)].map(([, key, value]) => [key!, value!]),
  );
  const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  return { meta, data: jsonLd ? (JSON.parse(jsonLd) as Record<string, unknown>) : null };
}

describe('the HTML of a public event’s page', () => {
  it('carries the event’s title, description, address and Open Graph and Twitter tags, and still loads the app', async () => {
    const { slug } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ name: 'Standing', capacity: 20, price: 2500 }],
    });
    const response = await page(slug);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body;
    expect(html).toContain('<title>Jazz night · Admit</title>');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('src="/assets/index.js"');
    const { meta } = headOf(html);
    expect(meta.get('og:title')).toBe('Jazz night');
    expect(meta.get('og:url')).toBe(`http://localhost:3000/e/${slug}`);
    expect(meta.get('twitter:card')).toBe('summary');
    expect(meta.get('description')).toBe(meta.get('og:description'));
    expect(meta.get('description')).not.toContain('tickets for events and check-in');
    expect(html.match(/name="description"/g)).toHaveLength(1);
  });

  it('describes the event for search engines as a schema.org Event with an offer per ticket type', async () => {
    const { slug } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [
        { name: 'Standing', capacity: 20, price: 2500 },
        { name: 'Balcony', capacity: 1, price: 0 },
      ],
    });
    const { data } = headOf((await page(slug)).body);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Jazz night',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Club Blau' },
      organizer: { '@type': 'Organization' },
      startDate: '2030-01-10T18:00:00.000Z',
      offers: [
        { '@type': 'Offer', name: 'Standing', price: '25.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
        { '@type': 'Offer', name: 'Balcony', price: '0.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
      ],
    });
  });

  it('is in the visitor’s language when the event has it', async () => {
    const { eventId, slug } = await createPublishedEvent(t, owner.cookie);
    const saved = await t.call(
      setEventContent,
      {
        eventId,
        contentLocale: 'en',
        translations: { fr: { title: 'Soirée jazz', description: 'Trois sets au bord de l’eau.', venue: 'Club Bleu' } },
      },
      owner.cookie,
    );
    expect(saved.status).toBe(200);
    const { meta, data } = headOf((await page(slug, { 'accept-language': 'fr-FR,fr;q=0.9' })).body);
    expect(meta.get('og:title')).toBe('Soirée jazz');
    expect(meta.get('og:description')).toBe('Trois sets au bord de l’eau.');
    expect(meta.get('og:locale')).toBe('fr');
    expect(data).toMatchObject({ name: 'Soirée jazz', inLanguage: 'fr', location: { name: 'Club Bleu' } });
    expect(headOf((await page(slug, { 'accept-language': 'ja' })).body).meta.get('og:title')).toBe('Jazz night');
  });

  it('escapes what the organizer typed, in the tags and in the JSON-LD', async () => {
    const { eventId, slug } = await createPublishedEvent(t, owner.cookie);
    const title = `"Jazz" & <b>night</b> </script><script>alert(1)</script>`;
    await t.db.update(event).set({ title }).where(eq(event.id, eventId));
    const html = (await page(slug)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<b>night');
    const { meta, data } = headOf(html);
    expect(meta.get('og:title')).toBe(
      '&quot;Jazz&quot; &amp; &lt;b&gt;night&lt;/b&gt; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(data?.name).toBe(title);
  });

  it('says a cancelled event is cancelled, and its places are no longer on sale', async () => {
    const { eventId, slug } = await createPublishedEvent(t, owner.cookie);
    await t.db.update(event).set({ status: 'cancelled' }).where(eq(event.id, eventId));
    expect(headOf((await page(slug)).body).data).toMatchObject({
      eventStatus: 'https://schema.org/EventCancelled',
      offers: [{ availability: 'https://schema.org/SoldOut' }],
    });
  });

  it('is the app’s own page for a draft or an unknown address, which tells nothing about them', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const { eventId, slug } = await createEventAs(t, owner.cookie, organizationId, { title: 'Secret draft' });
    await addTicketTypeAs(t, owner.cookie, eventId, { capacity: 5 });
    for (const address of [slug, 'no-such-event', 'a'.repeat(500)]) {
      const response = await page(address);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(appPage);
    }
  });
});
