import { randomUUID } from 'node:crypto';
import type { OrderActivityKind } from '@admit/shared/orders';
import type { Db, Tx } from '../../platform/db/database';
import { orderActivity } from './schema';

/**
 * Adds a line to an order's payment timeline (the organizer's order detail). Call it in the
 * transaction of the change it records, so the timeline never shows what did not happen.
 */
export async function recordActivity(
  tx: Tx | Db,
  orderId: string,
  kind: OrderActivityKind,
  detail: Record<string, string | number | boolean | null> = {},
  actorId: string | null = null,
) {
  await tx.insert(orderActivity).values({ id: randomUUID(), orderId, kind, detail, actorId });
}

/**
 * recordActivity for a line that must appear once whoever writes it (an email's "sent" line, which
 * a job tried again may write again): `id` names the line. True when this call wrote it.
 */
export async function recordActivityOnce(
  tx: Tx | Db,
  id: string,
  orderId: string,
  kind: OrderActivityKind,
  detail: Record<string, string | number | boolean | null> = {},
): Promise<boolean> {
  const written = await tx
    .insert(orderActivity)
    .values({ id, orderId, kind, detail })
    .onConflictDoNothing()
    .returning({ id: orderActivity.id });
  return written.length > 0;
}
