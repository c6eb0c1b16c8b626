import { setEventContent } from '@admit/shared/event-content';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole } from './event-access';
import { lockEvent } from './event-changes.functions';
import { event, ticketType } from './schema';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';

// The languages of an event's words: its main language and every translation of the event and of
// its ticket types' names, set at once by its admins (decision 0040). The rules a single input can
// break (no translation into the main language, names only in the event's languages) are the
// contract's; what needs the database (which ticket types the event has) is checked here.

/** JSON with its objects' keys sorted: jsonb gives keys back in its own order. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

export const setEventContentCallable = defineCallable(setEventContent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const changed = await ctx.db.transaction(async (tx) => {
      // The lock order of places.ts: the event first, then its ticket types.
      const found = await lockEvent(tx, input.eventId);
      const types = await tx
        .select({ id: ticketType.id, name: ticketType.name, nameTranslations: ticketType.nameTranslations })
        .from(ticketType)
        .where(eq(ticketType.eventId, found.id))
        .for('update');
      const known = new Set(types.map((type) => type.id));
      const unknown = input.ticketTypes.findIndex((type) => !known.has(type.ticketTypeId));
      if (unknown >= 0)
        throw new CallableError('invalid-argument', 'The event has no such ticket type', {
          fields: [{ path: `ticketTypes.${unknown}.ticketTypeId`, message: 'The event has no such ticket type', code: 'custom' }],
        });

      const names = new Map(input.ticketTypes.map((type) => [type.ticketTypeId, type.nameTranslations]));
      const eventChanged = found.contentLocale !== input.contentLocale || !same(found.translations, input.translations);
      const typesChanged = types.filter((type) => !same(type.nameTranslations, names.get(type.id) ?? {}));
      if (!eventChanged && typesChanged.length === 0) return false;

      if (eventChanged)
        await tx
          .update(event)
          .set({ contentLocale: input.contentLocale, translations: input.translations })
          .where(eq(event.id, found.id));
      for (const type of typesChanged)
        await tx
          .update(ticketType)
          .set({ nameTranslations: names.get(type.id) ?? {} })
          .where(eq(ticketType.id, type.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'event.setContent',
        target: found.title,
        details: {
          contentLocale: { from: found.contentLocale, to: input.contentLocale },
          languages: { from: Object.keys(found.translations).sort(), to: Object.keys(input.translations).sort() },
          ticketTypes: typesChanged.map((type) => type.name),
        },
      });
      return true;
    });
    if (changed) ctx.publish(eventTopic(checked.id), orgEventsTopic(checked.organizationId), publishedEventsTopic);
    return { changed };
  },
});
