import { timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLocale, type Locale } from '@admit/shared/locales';
import { variantBytes } from '../../platform/files/uploads';
import { sendError } from '../../platform/http/send-error';
import { event } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';
import { fileIdPattern, ticketFileSource } from '../tickets/tickets.api';
import { applePassFile, passAuthenticationToken } from './apple-pass';
import type { AppleSigning } from './apple-signing';
import { passModifiedAt } from './pass-updates';
import { passImageFiles } from './pass-images';
import { walletRegistration } from './schema';
import { walletTicketOf } from './wallet-ticket';
import type { WalletRouteDeps } from './wallet.routes';

// Apple's PassKit web service (decision 0067), under the pass's `webServiceURL` (/wallet/apple):
// Wallet registers a device for a pass with the pass's token, asks which of its passes changed, and
// fetches the latest one. The token is a keyed hash of the ticket's id: nothing to store, and only
// this server can make it.

type Params = { deviceId?: string; passTypeId: string; serial?: string };
type PassKitRequest = FastifyRequest<{ Params: Params; Querystring: { passesUpdatedSince?: unknown }; Body: unknown }>;

/** A path part as Wallet sends it: 1 to 200 characters, none of them a control character. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const partPattern = /^[^\u0000-\u001f\u007f]{1,200}$/;

/** Whether the request carries the pass's own token (`Authorization: ApplePass <token>`). */
function authorized(deps: WalletRouteDeps, request: PassKitRequest, serial: string): boolean {
  const given = /^ApplePass (\S{1,200})$/.exec(request.headers.authorization ?? '')?.[1];
  if (!given) return false;
  const expected = Buffer.from(passAuthenticationToken(deps.config, serial));
  const received = Buffer.from(given);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** The pass's ticket and its last change, if the pass is one of ours (its type and a ticket that exists). */
async function passOf(deps: WalletRouteDeps, signing: AppleSigning, params: Params) {
  const serial = params.serial ?? '';
  if (params.passTypeId !== signing.passTypeId || !fileIdPattern.test(serial)) return null;
  const [found] = await deps.db
    .select({ id: ticket.id, orderId: ticket.orderId, locale: order.locale, modified: passModifiedAt })
    .from(ticket)
    .innerJoin(event, eq(event.id, ticket.eventId))
    .innerJoin(order, eq(order.id, ticket.orderId))
    .where(eq(ticket.id, serial));
  return found ? { ...found, modified: new Date(found.modified) } : null;
}

const unauthorized = (reply: FastifyReply) => sendError(reply, 'unauthenticated', 'This pass’s token is not valid');

/** Registers the web service's routes; `signing` is how this server signs passes (none: no routes answer but 404). */
export function registerPassKitService(
  app: FastifyInstance,
  deps: WalletRouteDeps,
  signing: (() => Promise<AppleSigning>) | null,
) {
  const base = '/wallet/apple/v1';
  const registration = `${base}/devices/:deviceId/registrations/:passTypeId/:serial`;
  const refuse = (reply: FastifyReply) => sendError(reply, 'not-found', 'Apple Wallet passes are not set up on this server');

  // A device asks to hear of the pass's changes: 201 the first time, 200 after.
  app.post(registration, async (request: PassKitRequest, reply) => {
    if (!signing) return refuse(reply);
    const { deviceId = '', serial = '' } = request.params;
    const pass = partPattern.test(deviceId) ? await passOf(deps, await signing(), request.params) : null;
    if (!pass) return sendError(reply, 'not-found', 'No such pass');
    if (!authorized(deps, request, serial)) return unauthorized(reply);
    const pushToken = (request.body as { pushToken?: unknown } | null)?.pushToken;
    if (typeof pushToken !== 'string' || !partPattern.test(pushToken))
      return sendError(reply, 'invalid-argument', 'A pushToken of 1 to 200 characters is required');
    const [made] = await deps.db
      .insert(walletRegistration)
      .values({ deviceLibraryId: deviceId, passTypeId: request.params.passTypeId, ticketId: pass.id, pushToken })
      .onConflictDoUpdate({
        target: [walletRegistration.deviceLibraryId, walletRegistration.passTypeId, walletRegistration.ticketId],
        set: { pushToken },
      })
      .returning({ new: sql<boolean>`xmax = 0` });
    return reply.code(made?.new ? 201 : 200).send({});
  });

  // The device no longer keeps the pass.
  app.delete(registration, async (request: PassKitRequest, reply) => {
    if (!signing) return refuse(reply);
    const { deviceId = '', serial = '' } = request.params;
    const pass = partPattern.test(deviceId) ? await passOf(deps, await signing(), request.params) : null;
    if (!pass) return sendError(reply, 'not-found', 'No such pass');
    if (!authorized(deps, request, serial)) return unauthorized(reply);
    await deps.db
      .delete(walletRegistration)
      .where(
        and(
          eq(walletRegistration.deviceLibraryId, deviceId),
          eq(walletRegistration.passTypeId, request.params.passTypeId),
          eq(walletRegistration.ticketId, pass.id),
        ),
      );
    return reply.code(200).send({});
  });

  // Which of the device's passes changed since `passesUpdatedSince` (the `lastUpdated` it was given: ms).
  app.get(`${base}/devices/:deviceId/registrations/:passTypeId`, async (request: PassKitRequest, reply) => {
    if (!signing) return refuse(reply);
    const { deviceId = '', passTypeId } = request.params;
    if (!partPattern.test(deviceId) || !partPattern.test(passTypeId)) return sendError(reply, 'not-found', 'No such device');
    const since = request.query.passesUpdatedSince;
    if (since !== undefined && (typeof since !== 'string' || !/^\d{1,15}$/.test(since)))
      return sendError(reply, 'invalid-argument', 'passesUpdatedSince is the lastUpdated this service gave');
    const rows = await deps.db
      .select({ serial: ticket.id, modified: passModifiedAt })
      .from(walletRegistration)
      .innerJoin(ticket, eq(ticket.id, walletRegistration.ticketId))
      .innerJoin(event, eq(event.id, ticket.eventId))
      .where(and(eq(walletRegistration.deviceLibraryId, deviceId), eq(walletRegistration.passTypeId, passTypeId)));
    const changed = rows
      .map((row) => ({ serial: row.serial, at: new Date(row.modified).getTime() }))
      .filter((row) => since === undefined || row.at > Number(since));
    if (changed.length === 0) return reply.code(204).send();
    return reply.send({
      serialNumbers: changed.map((row) => row.serial),
      lastUpdated: String(Math.max(...changed.map((row) => row.at))),
    });
  });

  // The pass as it is now, unless it did not change since the device's copy.
  app.get(`${base}/passes/:passTypeId/:serial`, async (request: PassKitRequest, reply) => {
    if (!signing) return refuse(reply);
    const found = await signing();
    const pass = await passOf(deps, found, request.params);
    if (!pass) return sendError(reply, 'not-found', 'No such pass');
    if (!authorized(deps, request, pass.id)) return unauthorized(reply);
    // HTTP dates have whole seconds: a change within the device's second is a change.
    const modified = new Date(Math.ceil(pass.modified.getTime() / 1000) * 1000);
    const since = Date.parse(request.headers['if-modified-since'] ?? '');
    if (!Number.isNaN(since) && modified.getTime() <= since) return reply.code(304).send();
    const [source] = await ticketFileSource(deps.db).where(eq(order.id, pass.orderId));
    const locale: Locale = pass.locale && isLocale(pass.locale) ? pass.locale : 'en';
    const ticketShown = source && (await walletTicketOf(deps.db, { source, ticketId: pass.id, locale }));
    if (!ticketShown) return sendError(reply, 'not-found', 'No such pass');
    const logo = ticketShown.logo && (await variantBytes(deps.storage, ticketShown.logo.key));
    const file = await applePassFile({
      ticket: ticketShown,
      signing: found,
      images: await passImageFiles(logo),
      publicUrl: deps.publicUrl,
      config: deps.config,
    });
    return reply
      .type('application/vnd.apple.pkpass')
      .header('last-modified', modified.toUTCString())
      .header('cache-control', 'private, no-cache')
      .send(file);
  });

  // Wallet's own error reports: kept in the log, bounded.
  app.post(`${base}/log`, { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const logs = (request.body as { logs?: unknown } | null)?.logs;
    if (Array.isArray(logs))
      for (const line of logs.slice(0, 20)) request.log.info({ wallet: String(line).slice(0, 500) }, 'wallet log');
    return reply.code(200).send({});
  });
}
