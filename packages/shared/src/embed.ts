import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';

/** How many sites one event may be embedded on. */
export const maxEmbedSites = 20;

/**
 * A site allowed to embed an event's checkout, as its origin (`https://example.org`, with a port when
 * it has one); null for anything else: a path, a query, a user name, another scheme, a wildcard.
 * The browser compares a frame's ancestors by origin, so the origin is all that is kept.
 */
export function embedSiteOf(text: string): string | null {
  const given = text.trim();
  if (given.length === 0 || given.length > 200 || !/^https?:\/\//i.test(given)) return null;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  // A host with a dot or localhost: not an intranet name a frame-ancestors list would read otherwise.
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) return null;
  return url.origin;
}

export const EmbedSite = z
  .string()
  .max(200)
  .refine((text) => embedSiteOf(text) !== null, "Enter a site's address such as https://example.org, without a path");

export const SetEmbedSitesInput = z.strictObject({
  eventId: Id,
  sites: z.array(EmbedSite).max(maxEmbedSites, `At most ${maxEmbedSites} sites`),
});
export type SetEmbedSitesInput = z.input<typeof SetEmbedSitesInput>;
export const SetEmbedSitesOutput = z.object({ sites: z.array(z.string()) });
export const setEmbedSites = defineCallableContract('events.setEmbedSites', SetEmbedSitesInput, SetEmbedSitesOutput);

/** What embed.js asks before it draws the frame: whether the page it is on may show it (`GET /embed/e/<slug>/allowed?origin=`). */
export const EmbedCheck = z.object({ allowed: z.boolean(), title: z.string(), url: z.string() });
export type EmbedCheck = z.infer<typeof EmbedCheck>;
