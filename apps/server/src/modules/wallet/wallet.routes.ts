import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config';
import type { FileStorage } from '../../platform/files/storage';
import { variantBytes } from '../../platform/files/uploads';
import { contentDisposition } from '../../platform/http/content-disposition';
import { sendError } from '../../platform/http/send-error';
import { localeOf } from '../../platform/mail/compose';
import { noSuchTickets, ticketFileAccess, tokenOf, type TicketFileDeps, type TicketFileRefusal } from '../tickets/tickets.api';
import { applePassFile } from './apple-pass';
import { appleSigningOf } from './apple-signing';
import { googleSaveLink } from './google-pass';
import { rememberGoogleObject } from './google-updates';
import { googleSigningOf } from './google-signing';
import { passImageFiles } from './pass-images';
import { registerPassKitService } from './passkit-service.routes';
import { walletTicketOf, type WalletTicket } from './wallet-ticket';

export interface WalletRouteDeps extends TicketFileDeps {
  /** Where the organization's logo is kept. */
  storage: FileStorage;
  publicUrl: string;
  /** The wallets' settings, and the secret a pass's token is made with. */
  config: Config;
}

type TicketRequest = FastifyRequest<{ Params: { ticketId: string }; Querystring: { token?: unknown } }>;

/** The ticket as its passes show it, for whoever may read its files (the ticket PDF's rule); else why not. */
async function walletTicketFor(
  deps: WalletRouteDeps,
  request: TicketRequest,
): Promise<{ ticket: WalletTicket; slug: string } | { refused: TicketFileRefusal }> {
  const { ticketId } = request.params;
  const access = await ticketFileAccess(deps, { request, ticketId, token: tokenOf(request.query) });
  if ('refused' in access) return access;
  const locale = localeOf(request.headers.cookie, request.headers['accept-language']);
  const ticket = await walletTicketOf(deps.db, { source: access.source, ticketId, locale });
  if (!ticket) return { refused: { code: 'not-found', message: noSuchTickets } };
  return { ticket, slug: access.source.slug };
}

/**
 * `GET /files/tickets/:ticketId/pass.pkpass`: the ticket as an Apple Wallet pass. `GET
 * /files/tickets/:ticketId/google-wallet`: a redirect to Google's page that saves it in Google
 * Wallet. Both for whoever may get the ticket's PDF (its holder by session or `?token=`, and the
 * organization's admins), in the asker's language; a void ticket's pass is marked void. A wallet
 * the operator has not set up in production answers 404 (decision 0067).
 *
 * The settings are read here, as the server starts: a certificate or key that cannot be read stops it.
 */
export function registerWalletRoutes(app: FastifyInstance, deps: WalletRouteDeps) {
  const apple = appleSigningOf(deps.config);
  const google = googleSigningOf(deps.config);
  registerPassKitService(app, deps, apple);

  // Which wallets this server offers passes for: the buttons show only those (the same everywhere).
  app.get('/api/wallets', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send({ apple: apple !== null, google: google !== null }),
  );

  app.get('/files/tickets/:ticketId/pass.pkpass', async (request: TicketRequest, reply) => {
    if (!apple) return sendError(reply, 'not-found', 'Apple Wallet passes are not set up on this server');
    const found = await walletTicketFor(deps, request);
    if ('refused' in found) return sendError(reply, found.refused.code, found.refused.message);
    const { ticket } = found;
    const logo = ticket.logo && (await variantBytes(deps.storage, ticket.logo.key));
    const file = await applePassFile({
      ticket,
      signing: await apple(),
      images: await passImageFiles(logo),
      publicUrl: deps.publicUrl,
      config: deps.config,
    });
    return reply
      .type('application/vnd.apple.pkpass')
      .header('content-disposition', contentDisposition('attachment', `${found.slug}-ticket.pkpass`))
      .header('cache-control', 'private, no-store')
      .send(file);
  });

  app.get('/files/tickets/:ticketId/google-wallet', async (request: TicketRequest, reply) => {
    if (!google) return sendError(reply, 'not-found', 'Google Wallet passes are not set up on this server');
    const found = await walletTicketFor(deps, request);
    if ('refused' in found) return sendError(reply, found.refused.code, found.refused.message);
    // From now on Google may keep the pass: its later changes are sent (google-updates.ts).
    await rememberGoogleObject(deps.db, found.ticket.id);
    const link = googleSaveLink({
      ticket: found.ticket,
      signing: await google(),
      publicUrl: deps.publicUrl,
      issuedAt: new Date(),
    });
    return reply.header('cache-control', 'private, no-store').redirect(link, 302);
  });
}
