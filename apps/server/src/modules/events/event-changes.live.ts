import { instantToZonedLocal } from '@admit/shared/dates';
import { eventAudit, managedTicketTypes } from '@admit/shared/event-changes';
import { asc, desc, eq } from 'drizzle-orm';
import { auditLog } from '../../platform/audit/schema';
import { defineLiveQuery } from '../../platform/live/live-query';
import { requireEventRole } from './event-access';
import { ticketType } from './schema';
import { eventTopic } from './topics';

/** Every ticket type of an event, hidden ones too, with what is sold and held: for its admins. */
export const managedTicketTypesLive = defineLiveQuery(managedTicketTypes, {
  auth: 'required',
  async load(params, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const types = await ctx.db
      .select()
      .from(ticketType)
      .where(eq(ticketType.eventId, params.eventId))
      .orderBy(asc(ticketType.position), asc(ticketType.id));
    const local = (instant: Date | null) => (instant ? instantToZonedLocal(instant, found.timeZone) : null);
    return types.map((type) => ({
      id: type.id,
      eventId: type.eventId,
      name: type.name,
      nameTranslations: type.nameTranslations,
      price: type.price,
      capacity: type.capacity,
      sold: type.sold,
      held: type.held,
      maxPerOrder: type.maxPerOrder,
      maxPerBuyer: type.maxPerBuyer,
      salesStartLocal: local(type.salesStart),
      salesEndLocal: local(type.salesEnd),
      hidden: type.hidden,
      position: type.position,
    }));
  },
  topics: (params) => [eventTopic(params.eventId)],
});

/** The latest 200 changes to an event, newest first: for its admins. */
export const eventAuditLive = defineLiveQuery(eventAudit, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const rows = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.eventId, params.eventId))
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(200);
    return rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actorName: row.actorName,
      action: row.action,
      target: row.target,
      details: row.details,
    }));
  },
  // Every change that writes an audit line publishes the event's topic.
  topics: (params) => [eventTopic(params.eventId)],
});

export const eventChangesLiveQueries = [managedTicketTypesLive, eventAuditLive];
