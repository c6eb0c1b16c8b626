import type { ListQuery } from '@admit/shared/api-v1';
import { and, asc, gt, gte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { ApiProblem } from './problem';

// Lists are ordered by (updated_at, id), the same order for a first listing and for a sync, and a
// cursor is the position after a page's last item: the microseconds of its updated_at (exactly as
// PostgreSQL keeps them: a JavaScript Date would round them away) and its id.

interface Position {
  micros: string;
  id: string;
}

/** The column to select beside a row: its updated_at in microseconds since 1970, as text. */
export const micros = (updatedAt: AnyColumn) => sql<string>`(extract(epoch from ${updatedAt}) * 1000000)::bigint::text`;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.micros}.${position.id}`).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^(\d{1,19})\.(.{1,64})$/.exec(text);
  if (!match)
    throw new ApiProblem(400, 'invalid-request', 'The cursor is not one this API gave', {
      errors: [{ path: 'cursor', message: 'Not a cursor of this API' }],
    });
  return { micros: match[1]!, id: match[2]! };
}

/** The conditions a page's query adds, and its order: after the cursor, changed since `updated_since`. */
export function pageConditions(query: ListQuery, columns: { updatedAt: AnyColumn; id: AnyColumn }) {
  const conditions: (SQL | undefined)[] = [];
  if (query.updated_since) conditions.push(gte(columns.updatedAt, new Date(query.updated_since)));
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    const at = sql`(timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond')`;
    conditions.push(or(gt(columns.updatedAt, at), and(sql`${columns.updatedAt} = ${at}`, gt(columns.id, after.id))));
  }
  return { where: and(...conditions), orderBy: [asc(columns.updatedAt), asc(columns.id)], limit: query.limit + 1 };
}

/**
 * The page from rows read with `limit + 1`: its items, and the cursor after the last one. The
 * cursor is given on the last page too (then `has_more` is false): kept, it syncs what changes later.
 */
export function pageOf<Row extends { id: string; micros: string }>(rows: Row[], query: ListQuery) {
  const has_more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    rows: page,
    has_more,
    next_cursor: last ? encodeCursor({ micros: last.micros, id: last.id }) : (query.cursor ?? null),
  };
}

/** updated_at from the microseconds read: ISO 8601 in UTC, to the millisecond. */
export const updatedAtOf = (row: { micros: string }) => new Date(Number(BigInt(row.micros) / 1000n)).toISOString();
