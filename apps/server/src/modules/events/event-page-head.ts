import { localizeEvent, localizeTicketTypeName } from '@admit/shared/event-content';
import type { Locale } from '@admit/shared/locales';
import { and, asc, eq, ne } from 'drizzle-orm';
import { organization } from '../../platform/auth/organization-schema';
import type { Db } from '../../platform/db/database';
import { imageUrl, jpegVariantOf } from '../../platform/files/uploads';
import { escapeHtml, jsonForScript } from '../../platform/http/html';
import { shorten } from '../../platform/mail/shown-text';
import { event, ticketType } from './schema';

// What a link to an event's page shows before any script runs: a chat app or a search engine reads
// the HTML the server sends, not the page the app draws. The server puts the event's title,
// description and cover in the page's <head> (Open Graph and Twitter cards) and its schema.org
// `Event` with its offers (JSON-LD); the app then draws the page as for any other route.
// Decision 0043 says why the head and not the whole page.

/** A price in minor units as schema.org's decimal string ("25.00"; "1500" in yen). */
function decimalPrice(minor: number, currency: string) {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

const schemaStatus = { cancelled: 'https://schema.org/EventCancelled' } as Record<string, string>;

/**
 * The <head> tags of a public event's page (title, description, Open Graph, Twitter, JSON-LD), in
 * `locale` when the event has it, else its main language; null for a slug with no public event
 * (unknown or a draft), whose page keeps the app's own head.
 */
export async function eventPageHead(db: Db, slug: string, locale: Locale, publicUrl: string): Promise<string | null> {
  const [found] = await db
    .select({ event, organizationName: organization.name })
    .from(event)
    .innerJoin(organization, eq(organization.id, event.organizationId))
    .where(and(eq(event.slug, slug), ne(event.status, 'draft')));
  if (!found) return null;
  const shown = localizeEvent(found.event, locale);
  const types = await db
    .select()
    .from(ticketType)
    .where(and(eq(ticketType.eventId, found.event.id), eq(ticketType.hidden, false)))
    .orderBy(asc(ticketType.position));
  const cover = await jpegVariantOf(db, found.event.coverFile, 1200);

  const url = new URL(`/e/${encodeURIComponent(slug)}`, publicUrl).toString();
  const title = shorten(shown.title, 200);
  const place = shorten(shown.venue, 300);
  const when = new Intl.DateTimeFormat(shown.locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: found.event.timeZone,
  }).format(found.event.startsAt);
  const description = shorten(shown.description.replace(/\s+/g, ' ').trim() || `${when} · ${place}`, 300);
  const image = cover && new URL(imageUrl(cover.key), publicUrl).toString();
  const open = found.event.status === 'published';

  const structured = {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: title,
    description,
    url,
    startDate: found.event.startsAt.toISOString(),
    endDate: found.event.endsAt.toISOString(),
    eventStatus: schemaStatus[found.event.status] ?? 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    inLanguage: shown.locale,
    location: { '@type': 'Place', name: place, address: place },
    organizer: { '@type': 'Organization', name: found.organizationName },
    ...(image ? { image: [image] } : {}),
    offers: types.map((type) => ({
      '@type': 'Offer',
      name: localizeTicketTypeName(type, found.event.contentLocale, shown.locale).name,
      price: decimalPrice(type.price, found.event.currency),
      priceCurrency: found.event.currency,
      url,
      availability: open && type.sold + type.held < type.capacity ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      ...(type.salesStart ? { validFrom: type.salesStart.toISOString() } : {}),
    })),
  };

  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(`${title} · Admit`)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Admit'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:locale', shown.locale),
    ...(image && cover
      ? [
          meta('property', 'og:image', image),
          meta('property', 'og:image:width', String(cover.width)),
          meta('property', 'og:image:height', String(cover.height)),
          meta('property', 'og:image:alt', title),
        ]
      : []),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    ...(image ? [meta('name', 'twitter:image', image)] : []),
    `<script type="application/ld+json">${jsonForScript(structured)}</script>`,
  ].join('\n    ');
}

/** The app's page with `head` in place of its own title and description. */
export function withHead(indexHtml: string, head: string): string {
  return indexHtml.replace(/<meta\s+name="description"[^>]*>\s*/i, '').replace(/<title>[^<]*<\/title>/i, () => head);
}
