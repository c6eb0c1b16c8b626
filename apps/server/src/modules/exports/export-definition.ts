import type { OrgRole } from '@admit/shared/orgs';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { EventRecord } from '../events/events.api';

// What every export is made of (exports.routes.ts serves them): its columns and its rows, read
// page by page.

export type Cell = string | number;

export interface ExportContext {
  db: Db;
  event: EventRecord;
  role: OrgRole;
  locale: string;
  publicUrl: string;
}

/** One kind of export: who may have it, its columns, how many rows, and its rows page by page. */
export interface ExportDefinition {
  minimumRole: OrgRole;
  header(context: ExportContext): string[] | Promise<string[]>;
  count(context: ExportContext): Promise<number>;
  rows(context: ExportContext): AsyncGenerator<Cell[]>;
}

export const pageSize = 1_000;

/** Reads pages ordered by (at, id) after a cursor, until a short page: keyset pagination. */
export async function* pages<T extends { cursorAt: string; id: string }>(
  read: (after: SQL | undefined) => Promise<T[]>,
  at: SQL,
  id: SQL,
): AsyncGenerator<T> {
  let after: SQL | undefined;
  for (;;) {
    const page = await read(after);
    yield* page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    // The cursor's time is kept as the database's text: a JavaScript Date would lose the microseconds.
    after = sql`(${at}, ${id}) > (${last.cursorAt}::timestamptz, ${last.id})`;
  }
}
