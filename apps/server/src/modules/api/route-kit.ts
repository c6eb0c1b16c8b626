import { EventResource, OrderResource, TicketResource } from '@admit/shared/api-resources';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { eventResource } from '../events/events.api';
import { event } from '../events/schema';
import { PathId, type ApiContext } from './api-route';
import { updatedAtOf } from './pages';
import { notFound } from './problem';

// What the REST API's routes share: the objects with their updated_at, an event of the key's
// organization, and the resources built by their modules (decision 0062).

export const Updated = { updated_at: z.iso.datetime() };
export const ApiEvent = EventResource.extend(Updated).meta({ id: 'Event' });
export const ApiOrder = OrderResource.extend(Updated).meta({ id: 'Order' });
export const ApiTicket = TicketResource.extend(Updated).meta({ id: 'Ticket' });
export const EventPath = z.strictObject({ event_id: PathId });
export const iso = (time: Date | null) => time?.toISOString() ?? null;

/** The key's organization's event, or not-found (another organization's events do not exist for it). */
export async function eventOfKey(ctx: ApiContext, eventId: string) {
  const [found] = await ctx.db
    .select({ id: event.id, timeZone: event.timeZone, currency: event.currency })
    .from(event)
    .where(and(eq(event.id, eventId), eq(event.organizationId, ctx.key.organizationId)));
  if (!found) throw notFound('event');
  return found;
}

/** The rows' resources from their module's builder, each with its row's updated_at beside it. */
export async function built<R extends { id: string }>(
  db: Db,
  rows: { id: string; micros: string }[],
  build: (db: Db, ids: string[]) => Promise<R[]>,
) {
  const changed = new Map(rows.map((row) => [row.id, updatedAtOf(row)]));
  return (
    await build(
      db,
      rows.map((row) => row.id),
    )
  ).map((resource) => ({ ...resource, updated_at: changed.get(resource.id)! }));
}

/** The events' resources, one by one (a page of an organization's events is short). */
export const eventResources = async (db: Db, ids: string[]) =>
  (await Promise.all(ids.map((id) => eventResource(db, id)))).filter((found) => found !== null);
