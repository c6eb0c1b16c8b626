import { z } from 'zod';
import { CallableErrorBody } from './callable';

/** Every live row has a string id: changes are sent as upserts and removes by id. */
export type LiveRow = { id: string };

export interface LiveQueryContract<
  Params extends z.ZodType = z.ZodType,
  Row extends z.ZodType<LiveRow> = z.ZodType<LiveRow>,
  Name extends string = string,
> {
  name: Name;
  params: Params;
  row: Row;
}

export function defineLiveQueryContract<const Name extends string, Params extends z.ZodType, Row extends z.ZodType<LiveRow>>(
  name: Name,
  params: Params,
  row: Row,
): LiveQueryContract<Params, Row, Name> {
  return { name, params, row };
}

// The messages of the /live WebSocket (described in docs/contracts.md, Live queries).
export const LiveClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    query: z.string().min(1).max(100),
    params: z.unknown(),
    /** The last version this client saw of this subscription, when it resubscribes after a reconnect. */
    version: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), id: z.string().min(1).max(64) }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessage>;

export type LiveServerMessage =
  | { type: 'snapshot'; id: string; rows: LiveRow[]; version: number }
  | {
      type: 'changes';
      id: string;
      upserts: LiveRow[];
      removes: string[];
      /** Every row id in the query's order, sent only when rows moved (not when new ones were added at the end). */
      order?: string[];
      version: number;
    }
  | { type: 'error'; id: string | null; error: CallableErrorBody['error'] };
