import { and, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/database';
import { webhookDelivery } from './schema';

// What a round of an endpoint's webhooks takes (deliver.ts): deliveries tried before and due again,
// and messages of the outbox past the endpoint's cursor; and which of them go now, in turn per object.

/**
 * A delivery no earlier pending one of its object holds back (`d` is webhook_delivery). `offset 0`
 * keeps it a look-up per delivery, by endpoint, object and seq: made a join, on a table whose
 * statistics are older than a rush (the first minute of one), it read every pending delivery of the
 * endpoint for each one (37 ms a round of 50 rather than 1).
 */
export const isHead = sql`not exists (select 1 from webhook_delivery earlier
                                        where earlier.endpoint_id = d.endpoint_id and earlier.object_id = d.object_id
                                          and earlier.status = 'pending' and earlier.seq < d.seq offset 0)`;

/** A delivery tried in a round: one tried before (its row), or a message read from the outbox. */
export interface Claimed {
  id: string;
  seq: number;
  objectId: string;
  attempts: number;
  createdAt: Date;
  messageId: string;
  type: string;
  /** The object as JSON text, as the outbox keeps it: put in the body as it is. */
  payload: string;
  messageCreatedAt: Date;
}

export interface Endpoint {
  id: string;
  organizationId: string;
  eventTypes: string[];
  cursorTxid: number;
  cursorSeq: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** Due deliveries that wait behind no earlier pending one of their object (`d` is webhook_delivery). */
const dueHeads = (endpointId: string) =>
  sql`d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at <= now() + interval '1 second' and ${isHead}`;

export async function anyDue(db: Db, endpointId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from webhook_delivery d where ${dueHeads(endpointId)} limit 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * The endpoint's next round: its oldest due deliveries after `after` (a seq) that no earlier one
 * of their object holds back, `limit` at most.
 */
export async function dueRound(db: Db, endpointId: string, after: number, limit: number): Promise<Claimed[]> {
  const result = await db.execute(sql`
    select d.id, d.seq, d.object_id, d.attempts, d.created_at, m.id as message_id, m.type, m.payload::text as payload, m.created_at as message_created_at
      from webhook_delivery d join webhook_message m on m.id = d.message_id
     where ${dueHeads(endpointId)} and d.seq > ${after}
     order by d.seq
     limit ${limit}`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      seq: number | string;
      object_id: string;
      attempts: number;
      created_at: Date | string;
      message_id: string;
      type: string;
      payload: string;
      message_created_at: Date | string;
    }[];
  };
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    objectId: row.object_id,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
    messageId: row.message_id,
    type: row.type,
    payload: row.payload,
    messageCreatedAt: new Date(row.message_created_at),
  }));
}

/** A message of the outbox read for an endpoint: not tried yet, no delivery row yet. */
export interface Fresh extends Omit<Claimed, 'seq'> {
  txid: number;
  seq: number;
}

/**
 * The next messages of the outbox that the endpoint wants, past its cursor, in (txid, seq) order:
 * only those of transactions that have all ended, so that none committed later can fall behind the
 * cursor (a transaction's messages become readable once every one older than it has ended).
 */
export async function outboxRound(db: Db, endpoint: Endpoint, limit: number): Promise<Fresh[]> {
  const result = await db.execute(sql`
    select m.id, m.txid, m.seq, m.object_id, m.type, m.payload::text as payload, m.created_at
      from webhook_message m
     where m.organization_id = ${endpoint.organizationId}
       and (m.txid, m.seq) > (${endpoint.cursorTxid}::bigint, ${endpoint.cursorSeq}::bigint)
       and m.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
       and m.type = any(${sql.param(endpoint.eventTypes)}::text[])
     order by m.txid, m.seq
     limit ${limit}`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      txid: number | string;
      seq: number | string;
      object_id: string;
      type: string;
      payload: string;
      created_at: Date | string;
    }[];
  };
  return rows.map((row) => ({
    id: randomUUID(),
    txid: Number(row.txid),
    seq: Number(row.seq),
    objectId: row.object_id,
    attempts: 0,
    createdAt: new Date(),
    messageId: row.id,
    type: row.type,
    payload: row.payload,
    messageCreatedAt: new Date(row.created_at),
  }));
}

/**
 * Which fresh messages go now: one per object, and none of an object with a delivery pending, tried
 * again in this round, or in the round being recorded. The others wait, as pending deliveries
 * behind it.
 */
export async function inTurn(
  db: Db,
  endpointId: string,
  again: readonly Claimed[],
  fresh: readonly Fresh[],
  beingRecorded: ReadonlySet<string>,
) {
  const busy = new Set([...beingRecorded, ...again.map((delivery) => delivery.objectId)]);
  if (fresh.length > 0) {
    const pending = await db
      .selectDistinct({ objectId: webhookDelivery.objectId })
      .from(webhookDelivery)
      .where(
        and(
          eq(webhookDelivery.endpointId, endpointId),
          eq(webhookDelivery.status, 'pending'),
          inArray(webhookDelivery.objectId, [...new Set(fresh.map((message) => message.objectId))]),
        ),
      );
    for (const { objectId } of pending) busy.add(objectId);
  }
  const send: Fresh[] = [];
  const wait: Fresh[] = [];
  for (const message of fresh) {
    (busy.has(message.objectId) ? wait : send).push(message);
    busy.add(message.objectId);
  }
  return { send, wait };
}
