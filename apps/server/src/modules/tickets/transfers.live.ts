import {
  eventTransfers,
  incomingTransfer,
  transferLimits,
  transferSettings as settingsContract,
  type TransferStatus,
} from '@admit/shared/transfers';
import { desc, eq } from 'drizzle-orm';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { canSeeEvent, eventTopic, findEvent, requireEventRole, titlesAndVenues } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { ticket, ticketTransfer } from './schema';
import { ticketAccessToken, transferTokenOpens } from './ticket-access';
import { eventTransfersTopic, transferTopic } from './topics';
import { transferSettingsOf, transfersCloseAt } from './transfer-window';

/** A transfer's status as people read it: one still pending whose ticket was refunded or used meanwhile can no longer be accepted. */
const statusOf = (transfer: { status: TransferStatus }, found: { status: string; checkedInAt: Date | null }): TransferStatus =>
  transfer.status === 'pending' && (found.status !== 'valid' || found.checkedInAt !== null) ? 'void' : transfer.status;

/** An event's transfer settings, for anyone who may see the event, with the moment transfers close. */
export const transferSettingsLive = defineLiveQuery(settingsContract, {
  auth: 'optional',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    const settings = await transferSettingsOf(ctx.db, found.id);
    return [
      {
        id: found.id,
        enabled: settings?.enabled ?? true,
        closesHoursBeforeStart: settings?.closesHoursBeforeStart ?? 0,
        closesAt: transfersCloseAt(settings, found.startsAt)?.toISOString() ?? null,
        resaleEnabled: settings?.resaleEnabled ?? false,
        resaleFee: settings?.resaleFee ?? 0,
      },
    ];
  },
  topics: (params) => [eventTransfersTopic(params.eventId), eventTopic(params.eventId)],
});

/** A transfer as its recipient opens it, by the token of the link emailed to them. */
export const incomingTransferLive = defineLiveQuery(incomingTransfer, {
  auth: 'optional',
  async load(params, ctx) {
    if (!ctx.config || !transferTokenOpens(ctx.config, params.transferId, params.token))
      throw new CallableError('not-found', 'No such transfer');
    const [row] = await ctx.db
      .select({
        transfer: ticketTransfer,
        ticket: { status: ticket.status, checkedInAt: ticket.checkedInAt, ticketTypeId: ticket.ticketTypeId },
        event: {
          id: event.id,
          slug: event.slug,
          title: event.title,
          venue: event.venue,
          contentLocale: event.contentLocale,
          translations: titlesAndVenues,
          timeZone: event.timeZone,
          startsAt: event.startsAt,
          endsAt: event.endsAt,
        },
        ticketTypeName: ticketType.name,
        ticketTypeNameTranslations: ticketType.nameTranslations,
      })
      .from(ticketTransfer)
      .innerJoin(ticket, eq(ticket.id, ticketTransfer.ticketId))
      .innerJoin(event, eq(event.id, ticketTransfer.eventId))
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(ticketTransfer.id, params.transferId));
    if (!row) throw new CallableError('not-found', 'No such transfer');
    const { transfer, event: shown } = row;
    const closesAt = transfersCloseAt(await transferSettingsOf(ctx.db, shown.id), shown.startsAt);
    return [
      {
        id: transfer.id,
        status: statusOf(transfer, row.ticket),
        fromName: transfer.fromName,
        toEmail: transfer.toEmail,
        eventId: shown.id,
        eventSlug: shown.slug,
        eventTitle: shown.title,
        venue: shown.venue,
        contentLocale: shown.contentLocale,
        eventTranslations: shown.translations,
        timeZone: shown.timeZone,
        startsAt: shown.startsAt.toISOString(),
        endsAt: shown.endsAt.toISOString(),
        ticketTypeId: row.ticket.ticketTypeId,
        ticketTypeName: row.ticketTypeName,
        ticketTypeNameTranslations: row.ticketTypeNameTranslations,
        acceptUntil: closesAt?.toISOString() ?? null,
        ticketId: transfer.newTicketId,
        ticketAccessToken: transfer.newTicketId ? ticketAccessToken(ctx.config, transfer.newTicketId) : null,
      },
    ];
  },
  topics: (params, rows) => [transferTopic(params.transferId), ...rows.map((row) => eventTopic(row.eventId))],
});

/** An event's transfers, newest first, for its admins. */
export const eventTransfersLive = defineLiveQuery(eventTransfers, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const rows = await ctx.db
      .select({
        transfer: ticketTransfer,
        ticket: { status: ticket.status, checkedInAt: ticket.checkedInAt },
        ticketTypeName: ticketType.name,
      })
      .from(ticketTransfer)
      .innerJoin(ticket, eq(ticket.id, ticketTransfer.ticketId))
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(ticketTransfer.eventId, params.eventId))
      .orderBy(desc(ticketTransfer.createdAt), desc(ticketTransfer.id))
      .limit(transferLimits.shown);
    return rows.map(({ transfer, ticket: found, ticketTypeName }) => ({
      id: transfer.id,
      status: statusOf(transfer, found),
      ticketTypeName,
      fromName: transfer.fromName,
      fromEmail: transfer.fromEmail,
      toEmail: transfer.toEmail,
      toName: transfer.toName,
      orderId: transfer.orderId,
      createdAt: transfer.createdAt.toISOString(),
      decidedAt: transfer.decidedAt?.toISOString() ?? null,
    }));
  },
  // The event's topic too: a refund or a scan ends a pending transfer's chance.
  topics: (params) => [eventTransfersTopic(params.eventId), eventTopic(params.eventId)],
});

export const transfersLiveQueries = [transferSettingsLive, incomingTransferLive, eventTransfersLive];
