import { isLocale } from '@admit/shared/locales';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/job-services';
import { order } from '../orders/schema';
import { ticketFileSource } from '../tickets/tickets.api';
import { googlePassClaims } from './google-pass';
import { googleSigningOf, signedJwt, type GoogleSigning } from './google-signing';
import { passModifiedAt, pushSweepSeconds } from './pass-updates';
import { googleWalletObject } from './schema';
import { walletTicketOf } from './wallet-ticket';

// Saved Google passes follow their tickets (decision 0067): a sweep finds the tickets whose link was
// given out and whose ticket or event changed since Google last heard, and sends Google the event's
// class and the ticket's object as they are now, through its Wallet REST API.

/** Where the changes go, and the service account that may send them. */
export interface GoogleTarget {
  apiUrl: string;
  tokenUrl: string;
  signing: GoogleSigning;
}

/** The target for these settings, or null (outside production without Google's settings: nothing is sent). */
export async function googleTargetOf(config: Config): Promise<GoogleTarget | null> {
  const signingOf = googleSigningOf(config);
  if (!signingOf || (!config.GOOGLE_WALLET_API_URL && !config.GOOGLE_WALLET_ISSUER_ID)) return null;
  return {
    apiUrl: (config.GOOGLE_WALLET_API_URL ?? 'https://walletobjects.googleapis.com').replace(/\/$/, ''),
    tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
    signing: await signingOf(),
  };
}

/** An access token for the Wallet API: the service account signs in with a JWT (OAuth 2.0's JWT bearer grant). */
async function accessToken(target: GoogleTarget): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = signedJwt(target.signing, {
    iss: target.signing.clientEmail,
    scope: 'https://www.googleapis.com/auth/wallet_object.issuer',
    aud: target.tokenUrl,
    iat: now,
    exp: now + 3600,
  });
  const answer = await fetch(target.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!answer.ok) throw new Error(`Google's token endpoint answered ${answer.status}`);
  return z.object({ access_token: z.string() }).parse(await answer.json()).access_token;
}

/** Updates one resource, or inserts it when Google does not have it yet (a link never opened). */
async function upsert(target: GoogleTarget, token: string, kind: string, body: { id: string }): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const base = `${target.apiUrl}/walletobjects/v1/${kind}`;
  const put = await fetch(`${base}/${encodeURIComponent(body.id)}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (put.status !== 404) {
    if (!put.ok) throw new Error(`Google Wallet answered ${put.status} to ${kind} ${body.id}`);
    return;
  }
  const made = await fetch(base, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  if (!made.ok && made.status !== 409) throw new Error(`Google Wallet answered ${made.status} to a new ${kind} ${body.id}`);
}

/**
 * One sweep: each changed ticket's class and object sent to Google (each event's class once), and
 * marked with the change Google was given. A failure leaves the rest for the next sweep.
 */
export async function syncGoogleObjects(db: Db, target: GoogleTarget, publicUrl: string): Promise<number> {
  const due = await db.execute(sql`
    select g.ticket_id, ticket.order_id, (${passModifiedAt})::text as modified
      from google_wallet_object g
      join ticket on ticket.id = g.ticket_id
      join event on event.id = ticket.event_id
     where ${passModifiedAt} > g.synced_at
     limit 200`);
  const rows = (due as unknown as { rows: { ticket_id: string; order_id: string; modified: string }[] }).rows;
  if (rows.length === 0) return 0;
  const token = await accessToken(target);
  const classesSent = new Set<string>();
  let synced = 0;
  for (const row of rows) {
    const [source] = await ticketFileSource(db).where(eq(order.id, row.order_id));
    const [{ locale } = { locale: null }] = await db
      .select({ locale: order.locale })
      .from(order)
      .where(eq(order.id, row.order_id));
    const shown =
      source && (await walletTicketOf(db, { source, ticketId: row.ticket_id, locale: isLocale(locale) ? locale : 'en' }));
    if (!shown) continue;
    const claims = googlePassClaims({ ticket: shown, signing: target.signing, publicUrl, issuedAt: new Date() });
    const [eventClass] = claims.payload.eventTicketClasses;
    const [object] = claims.payload.eventTicketObjects;
    if (!classesSent.has(eventClass!.id)) {
      await upsert(target, token, 'eventTicketClass', eventClass!);
      classesSent.add(eventClass!.id);
    }
    await upsert(target, token, 'eventTicketObject', object!);
    // To the microsecond, as the database keeps it.
    await db
      .update(googleWalletObject)
      .set({ syncedAt: sql`${row.modified}::timestamptz` })
      .where(eq(googleWalletObject.ticketId, row.ticket_id));
    synced += 1;
  }
  return synced;
}

/** Remembers that a ticket's link was given out, as the pass is now (the JWT carries it): later changes are sent. */
export async function rememberGoogleObject(db: Db, ticketId: string): Promise<void> {
  await db.execute(sql`
    insert into google_wallet_object (ticket_id, synced_at)
    select ticket.id, ${passModifiedAt} from ticket join event on event.id = ticket.event_id where ticket.id = ${ticketId}
    on conflict (ticket_id) do nothing`);
}

/** The sweep, every 30 s in the worker, when Google is set up (or a stand-in is named). */
export const syncGoogleObjectsJob = defineJob({
  name: 'wallet.syncGoogleObjects',
  data: z.object({}),
  concurrency: 1,
  retryLimit: 1,
  everySeconds: () => pushSweepSeconds,
  async handler(_data, { services }) {
    const target = await googleTargetOf(services.config);
    if (target) await syncGoogleObjects(services.db, target, services.publicUrl);
  },
});
