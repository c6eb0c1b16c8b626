import http2 from 'node:http2';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/job-services';
import { appleSigningOf, developmentPassTypeId } from './apple-signing';
import { walletRegistration } from './schema';

// Passes that changed since their devices last heard (decision 0067): a ticket's holder, its void,
// its event's time or place. Found by a sweep, not by each change: every change of a ticket or an
// event sets its `updated_at` (a trigger), so no change can be missed, and a crash only delays a push.

/** How often the sweep looks for changed passes. */
export const pushSweepSeconds = 30;

/** A pass's last change: its ticket's or its event's. */
export const passModifiedAt = sql<Date>`greatest(ticket.updated_at, event.updated_at)`;

/** Where pushes go and how: Apple's service with the pass certificate, or a stand-in (tests). */
export interface PushTarget {
  url: string;
  topic: string;
  /** The pass type certificate and key, for Apple's TLS; none for a stand-in without TLS. */
  tls?: { cert: string; key: string };
}

/**
 * The push target for these settings, or null: nothing to push to (outside production without
 * Apple's settings, whose development passes Wallet refuses). Apple's service takes the pass type
 * certificate for TLS; a stand-in (APPLE_PUSH_URL, tests) takes none.
 */
export async function pushTargetOf(config: Config): Promise<PushTarget | null> {
  const topic = config.APPLE_PASS_TYPE_ID ?? developmentPassTypeId;
  if (config.APPLE_PUSH_URL) return { url: config.APPLE_PUSH_URL, topic };
  const signing = config.APPLE_PASS_TYPE_ID ? appleSigningOf(config) : null;
  if (!signing) return null;
  const { certificates } = await signing();
  return { url: 'https://api.push.apple.com', topic, tls: { cert: certificates.signerCert, key: certificates.signerKey } };
}

/**
 * Tells each device once that its passes changed: an empty push to its token (Wallet then asks the
 * web service which passes changed, and fetches them). Returns the tokens Apple says are gone (410),
 * and those it could not reach.
 */
async function push(target: PushTarget, tokens: readonly string[]): Promise<{ gone: string[]; failed: string[] }> {
  const session = http2.connect(target.url, target.tls ?? {});
  const gone: string[] = [];
  const failed: string[] = [];
  try {
    await Promise.all(
      tokens.map(
        (token) =>
          new Promise<void>((resolve) => {
            const request = session.request({
              ':method': 'POST',
              ':path': `/3/device/${encodeURIComponent(token)}`,
              'apns-topic': target.topic,
              'content-type': 'application/json',
            });
            request.setTimeout(10_000, () => request.close(http2.constants.NGHTTP2_CANCEL));
            request.on('response', (headers) => {
              const status = Number(headers[':status']);
              if (status === 410) gone.push(token);
              else if (status !== 200) failed.push(token);
            });
            request.on('error', () => failed.push(token));
            request.on('close', () => resolve());
            request.resume();
            request.end('{}');
          }),
      ),
    );
  } finally {
    session.close();
  }
  return { gone, failed };
}

/**
 * One sweep: the registrations whose pass changed after their device last heard, a push to each
 * device once, and each registration marked with the change it was told of. A device Apple says is
 * gone loses its registrations; one it could not reach is tried at the next sweep.
 */
export async function pushPassUpdates(db: Db, target: PushTarget): Promise<number> {
  const due = await db.execute(sql`
    select r.device_library_id, r.pass_type_id, r.ticket_id, r.push_token, (${passModifiedAt})::text as modified
      from wallet_registration r
      join ticket on ticket.id = r.ticket_id
      join event on event.id = ticket.event_id
     where ${passModifiedAt} > r.pushed_at
     limit 1000`);
  const rows = (
    due as unknown as {
      rows: { device_library_id: string; pass_type_id: string; ticket_id: string; push_token: string; modified: Date | string }[];
    }
  ).rows;
  if (rows.length === 0) return 0;
  const { gone, failed } = await push(target, [...new Set(rows.map((row) => row.push_token))]);
  if (gone.length > 0) await db.delete(walletRegistration).where(inArray(walletRegistration.pushToken, gone));
  const told = rows.filter((row) => !gone.includes(row.push_token) && !failed.includes(row.push_token));
  for (const row of told)
    await db
      .update(walletRegistration)
      // To the microsecond, as the database keeps it (a Date would drop what is below the millisecond).
      .set({ pushedAt: sql`${row.modified}::timestamptz` })
      .where(
        and(
          eq(walletRegistration.deviceLibraryId, row.device_library_id),
          eq(walletRegistration.passTypeId, row.pass_type_id),
          eq(walletRegistration.ticketId, row.ticket_id),
        ),
      );
  return told.length;
}

/** The sweep, every 30 s in the worker, when there is somewhere to push to. */
export const pushPassUpdatesJob = defineJob({
  name: 'wallet.pushPassUpdates',
  data: z.object({}),
  concurrency: 1,
  retryLimit: 1,
  everySeconds: () => pushSweepSeconds,
  async handler(_data, { services }) {
    const target = await pushTargetOf(services.config);
    if (target) await pushPassUpdates(services.db, target);
  },
});
