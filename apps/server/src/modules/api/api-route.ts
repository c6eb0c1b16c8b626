import type { ApiScope } from '@admit/shared/api-keys';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import type { CallingKey } from './api-key-auth';

export interface ApiContext {
  db: Db;
  key: CallingKey;
  log: FastifyBaseLogger;
  /** Topics whose live queries must refresh (what the app's screens show changed). */
  publish(...topics: string[]): void;
}

/**
 * One route of the REST API: what the Fastify route validates with, and what the OpenAPI document
 * says, from the same zod schemas. Every route names the scopes that may call it.
 */
export interface ApiRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST';
  /** Under /api/v1, with OpenAPI's `{name}` parameters. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  scopes: readonly ApiScope[];
  params: P;
  query: Q;
  body?: B;
  response: R;
  /** The success status (200 unless said). */
  status?: number;
  handler(input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }, ctx: ApiContext): Promise<z.input<R>>;
}

export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  route: ApiRoute<P, Q, B, R>,
) => route as unknown as ApiRoute;

/** A route without a query. */
export const NoQuery = z.strictObject({});
/** An id in a path. */
export const PathId = z.string().min(1).max(64);
