import { embedSiteOf, setEmbedSites } from '@admit/shared/embed';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { requireEventRole } from './event-access';
import { event } from './schema';
import { eventTopic } from './topics';

// The sites an event's checkout may be shown on in a frame (decision 0061): kept on the event, as
// origins, and sent as the embedded page's `Content-Security-Policy: frame-ancestors`.

/** Sets the event's list as given, each site as its origin, each once. */
export const setEmbedSitesCallable = defineCallable(setEmbedSites, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const sites = [...new Set(input.sites.map((site) => embedSiteOf(site)!))];
    const same = sites.length === found.embedSites.length && sites.every((site, index) => site === found.embedSites[index]);
    if (same) return { sites };
    await ctx.db.transaction(async (tx) => {
      await tx.update(event).set({ embedSites: sites }).where(eq(event.id, found.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'event.setEmbedSites',
        target: found.title,
        details: { sites: { from: found.embedSites, to: sites } },
      });
    });
    ctx.publish(eventTopic(found.id));
    return { sites };
  },
});

/** What an embedded page needs to know of its event: whether it is there for visitors, its title and its sites. */
export async function embedOf(db: Db, slug: string): Promise<{ title: string; sites: string[] } | null> {
  if (!/^[\w-]{1,120}$/.test(slug)) return null;
  const [found] = await db
    .select({ title: event.title, sites: event.embedSites, status: event.status })
    .from(event)
    .where(eq(event.slug, slug));
  if (!found || found.status === 'draft') return null;
  return { title: found.title, sites: found.sites };
}
