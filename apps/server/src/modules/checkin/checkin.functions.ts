import { randomUUID } from 'node:crypto';
import { scanTicket, undoCheckIn, undoWindowMs, type ScanOutput } from '@admit/shared/checkin';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { checkInsTopic, requireDoorAccess } from './door-access';
import { ticketType } from '../events/schema';
import { ticket } from '../orders/schema';
import { checkIn } from './schema';

/** The answer for a recorded scan (the first time, and for the same key again). */
async function answerOf(db: Db, recorded: typeof checkIn.$inferSelect): Promise<ScanOutput> {
  if (!recorded.ticketId) return { checkInId: recorded.id, result: recorded.result, ticket: null, firstCheckIn: null };
  const [found] = await db
    .select({
      id: ticket.id,
      holderName: ticket.holderName,
      ticketTypeName: ticketType.name,
      checkedInAt: ticket.checkedInAt,
      checkedInDevice: ticket.checkedInDevice,
    })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(eq(ticket.id, recorded.ticketId));
  const first =
    recorded.result === 'duplicate' && found?.checkedInAt
      ? { at: found.checkedInAt.toISOString(), device: found.checkedInDevice ?? '' }
      : null;
  return {
    checkInId: recorded.id,
    result: recorded.result,
    ticket: found ? { id: found.id, holderName: found.holderName, ticketTypeName: found.ticketTypeName } : null,
    firstCheckIn: first,
  };
}

class SameKeyMeanwhile extends Error {}

/**
 * A scan at the door (staff and above). The first scan of a valid ticket admits it, with one
 * conditional update, so of two doors scanning one ticket at once exactly one admits; every scan
 * is kept in the check-in log, whatever its result. A scan replayed with its key is answered as the
 * first time and changes nothing.
 */
export const scanTicketCallable = defineCallable(scanTicket, {
  auth: 'required',
  async handler(input, ctx) {
    await requireDoorAccess(ctx.db, ctx.user, input.eventId);
    const known = async () => {
      const [recorded] = await ctx.db.select().from(checkIn).where(eq(checkIn.idempotencyKey, input.idempotencyKey));
      if (recorded && recorded.eventId !== input.eventId)
        throw new CallableError('invalid-argument', 'This key belongs to a scan at another event', {
          fields: [{ path: 'idempotencyKey', message: 'Already used for another event', code: 'custom' }],
        });
      return recorded;
    };
    const replayed = await known();
    if (replayed) return answerOf(ctx.db, replayed);

    // The device's clock, but never in the future: a replayed offline scan keeps when it happened.
    const now = new Date();
    const scannedAt = new Date(Math.min(new Date(input.scannedAt).getTime(), now.getTime()));
    const [found] = await ctx.db
      .select({ id: ticket.id, status: ticket.status })
      .from(ticket)
      .where(and(eq(ticket.eventId, input.eventId), eq(ticket.code, input.code)));

    let recorded: typeof checkIn.$inferSelect;
    try {
      recorded = await ctx.db.transaction(async (tx) => {
        let result: ScanOutput['result'] = found ? (found.status === 'void' ? 'void' : 'duplicate') : 'unknown';
        if (found?.status === 'valid') {
          const admitted = await tx
            .update(ticket)
            .set({ checkedInAt: scannedAt, checkedInDevice: input.device })
            .where(and(eq(ticket.id, found.id), isNull(ticket.checkedInAt), eq(ticket.status, 'valid')))
            .returning({ id: ticket.id });
          if (admitted.length > 0) result = 'accepted';
        }
        const [inserted] = await tx
          .insert(checkIn)
          .values({
            id: randomUUID(),
            eventId: input.eventId,
            ticketId: found?.id ?? null,
            device: input.device,
            scannedAt,
            result,
            idempotencyKey: input.idempotencyKey,
          })
          .onConflictDoNothing({ target: checkIn.idempotencyKey })
          .returning();
        // The same key arrived twice at once: the other one is recorded; undo this one's update.
        if (!inserted) throw new SameKeyMeanwhile();
        return inserted;
      });
    } catch (error) {
      if (!(error instanceof SameKeyMeanwhile)) throw error;
      recorded = (await known())!;
    }
    ctx.publish(checkInsTopic(input.eventId));
    return answerOf(ctx.db, recorded);
  },
});

/** Takes back an admission (staff and above) within a minute of it reaching the server. */
export const undoCheckInCallable = defineCallable(undoCheckIn, {
  auth: 'required',
  async handler(input, ctx) {
    await requireDoorAccess(ctx.db, ctx.user, input.eventId);
    const [recorded] = await ctx.db
      .select()
      .from(checkIn)
      .where(and(eq(checkIn.idempotencyKey, input.scanKey), eq(checkIn.eventId, input.eventId)));
    if (!recorded || recorded.result !== 'accepted') return { undone: false, reason: 'not-admitted' as const };
    if (recorded.undoneAt) return { undone: true, reason: 'undone' as const };
    if (Date.now() - recorded.createdAt.getTime() > undoWindowMs + 5_000) return { undone: false, reason: 'too-late' as const };
    await ctx.db.transaction(async (tx) => {
      const [undone] = await tx
        .update(checkIn)
        .set({ undoneAt: sql`now()` })
        .where(and(eq(checkIn.id, recorded.id), isNull(checkIn.undoneAt)))
        .returning();
      if (undone?.ticketId)
        await tx.update(ticket).set({ checkedInAt: null, checkedInDevice: null }).where(eq(ticket.id, undone.ticketId));
    });
    ctx.publish(checkInsTopic(input.eventId));
    return { undone: true, reason: 'undone' as const };
  },
});

export const checkinCallables = [scanTicketCallable, undoCheckInCallable];
