import type { WebhookEventType } from '@admit/shared/webhooks';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { wakeEndpoints } from './deliver';
import { webhookEndpoint } from './schema';

export interface WebhookEvent {
  organizationId: string;
  type: WebhookEventType;
  /** The order, ticket or event it is about: its deliveries to one endpoint go in the order they were written. */
  objectId: string;
  /** The object as the API shows it (api-resources.ts): read only when an endpoint wants the webhook. */
  payload: () => Promise<unknown>;
}

/**
 * Writes a webhook to the outbox, in the transaction of the change it reports: a message, when an
 * enabled endpoint of the organization wants its type (each reads it from there, deliver.ts), or
 * nothing when none does. One statement. A rolled-back change sends nothing; a committed one is
 * delivered at least once (decision 0063).
 */
export async function emitWebhook(tx: Tx | Db, event: WebhookEvent): Promise<void> {
  const [wanted] = await tx
    .select({ id: webhookEndpoint.id })
    .from(webhookEndpoint)
    .where(
      and(
        eq(webhookEndpoint.organizationId, event.organizationId),
        eq(webhookEndpoint.status, 'enabled'),
        sql`${event.type} = any(${webhookEndpoint.eventTypes})`,
      ),
    )
    .limit(1);
  if (!wanted) return;
  const payload = await event.payload();
  await tx.execute(
    sql`with ${emitWebhooksInStatement({
      types: [event.type],
      from: sql`(select 1) as one`,
      organizationId: sql`${event.organizationId}::text`,
      objectId: sql`${event.objectId}::text`,
      payload: sql`${JSON.stringify(payload)}::jsonb`,
    })} select 1`,
  );
}

/**
 * emitWebhook as parts of a larger statement's `with` (orders made in one round trip): for each row
 * of `from`, one webhook of each of `types`, in that order, with the given SQL expressions over its
 * columns.
 */
export function emitWebhooksInStatement(input: {
  types: readonly WebhookEventType[];
  from: SQL;
  organizationId: SQL;
  objectId: SQL;
  payload: SQL;
}): SQL {
  const types = sql`${sql.param([...input.types])}::text[]`;
  return sql`webhook_source as materialized (
    select 'msg_' || replace(gen_random_uuid()::text, '-', '') as message_id, ${input.organizationId} as organization_id,
           ${input.objectId} as object_id, ${input.payload} as payload, t.type, t.position
      from ${input.from}, unnest(${types}) with ordinality as t(type, position)
     where exists (select 1 from webhook_endpoint e
                    where e.organization_id = ${input.organizationId} and e.status = 'enabled' and t.type = any(e.event_types))
  ),
  webhook_message_written as (
    insert into webhook_message (id, organization_id, type, object_id, payload)
    -- In the order of the types: an object's later webhook goes after its earlier one (deliver.ts).
    select message_id, organization_id, type, object_id, payload from webhook_source order by position
  ),
  ${wakeEndpoints(sql`(select distinct e.id as endpoint_id
      from webhook_source s
      join webhook_endpoint e on e.organization_id = s.organization_id and e.status = 'enabled' and s.type = any(e.event_types)) as wanted`)}`;
}
