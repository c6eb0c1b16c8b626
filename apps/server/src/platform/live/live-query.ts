import type { LiveQueryContract, LiveRow } from '@admit/shared/live';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { SessionUser } from '../auth/auth';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { CallableError } from '../http/callable-error';

export interface LiveContext {
  db: Db;
  user: SessionUser | null;
  /** The address the connection came from (as the proxy in front reports it): what quotas per address count. */
  clientAddress: string;
  log: FastifyBaseLogger;
  /** The server's configuration, where the process has one (a guest's order link is checked with its secret). */
  config?: Pick<Config, 'AUTH_SECRET'>;
}
export type AuthedLiveContext = LiveContext & { user: SessionUser };

type Auth = 'required' | 'optional';

interface LiveQueryOptions<Q extends LiveQueryContract, A extends Auth> {
  auth: A;
  /**
   * Reads the rows. Throws a CallableError (`permission-denied`, `not-found`) when the caller may
   * not see them; it runs again on every change, so a lost permission ends the subscription.
   */
  load(params: z.output<Q['params']>, ctx: A extends 'required' ? AuthedLiveContext : LiveContext): Promise<z.input<Q['row']>[]>;
  /** The change topics the rows depend on; a publish of any of them re-runs `load`. */
  topics(params: z.output<Q['params']>, rows: z.output<Q['row']>[], ctx: LiveContext): string[];
  /**
   * For a long list: the rows of some keys only, when every change since the last read named the
   * keys of what changed (topic-keys.ts) on topics listed here. Returns the current rows for those
   * keys (checking permissions as `load` does); rows are only added or replaced this way, never
   * removed. Any other change re-runs `load`.
   */
  keyed?: {
    topics(params: z.output<Q['params']>): string[];
    load(
      params: z.output<Q['params']>,
      keys: ReadonlyMap<string, readonly string[]>,
      ctx: A extends 'required' ? AuthedLiveContext : LiveContext,
    ): Promise<z.input<Q['row']>[]>;
  };
}

export interface LiveQuery {
  contract: LiveQueryContract;
  auth: Auth;
  load(params: unknown, ctx: LiveContext): Promise<unknown[]>;
  topics(params: unknown, rows: LiveRow[], ctx: LiveContext): string[];
  keyed?: {
    topics(params: unknown): string[];
    load(params: unknown, keys: ReadonlyMap<string, readonly string[]>, ctx: LiveContext): Promise<unknown[]>;
  };
}

/** Declares the server side of a live query: its contract from shared, who may watch it, its SQL and its topics. */
export function defineLiveQuery<Q extends LiveQueryContract, A extends Auth>(
  contract: Q,
  options: LiveQueryOptions<Q, A>,
): LiveQuery {
  return {
    contract,
    auth: options.auth,
    load: options.load as LiveQuery['load'],
    topics: options.topics as LiveQuery['topics'],
    keyed: options.keyed as LiveQuery['keyed'],
  };
}

/**
 * A live query's rows once, as a visitor who is not signed in would get them first on the socket
 * (parsed by the contract, as JSON): null for a query only the signed-in may watch, parameters it
 * refuses, or rows the visitor may not see. The first view of a public page is drawn with these.
 */
export async function readAsVisitor(
  queries: ReadonlyMap<string, LiveQuery>,
  name: string,
  params: unknown,
  ctx: LiveContext,
): Promise<LiveRow[] | null> {
  const query = queries.get(name);
  if (!query || query.auth === 'required') return null;
  const parsed = query.contract.params.safeParse(params);
  if (!parsed.success) return null;
  try {
    const rows = await query.load(parsed.data, { ...ctx, user: null });
    return JSON.parse(JSON.stringify(rows.map((row) => query.contract.row.parse(row)))) as LiveRow[];
  } catch (error) {
    if (error instanceof CallableError) return null;
    throw error;
  }
}
