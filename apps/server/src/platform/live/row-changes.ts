import type { LiveRow } from '@admit/shared/live';

/**
 * What changed between the rows a subscriber has (`previous`: each row's JSON by id, in order) and
 * the rows just read (`rows`, with `next` the same as JSON by id): the rows new or changed, the ids
 * gone, and the new order of ids when rows moved (not when new ones were only added at the end).
 * Null when nothing changed.
 */
export function rowChanges(previous: ReadonlyMap<string, string>, rows: readonly LiveRow[], next: ReadonlyMap<string, string>) {
  const upserts = rows.filter((row) => previous.get(row.id) !== next.get(row.id));
  const removes = [...previous.keys()].filter((id) => !next.has(id));
  const previousOrder = [...previous.keys()].filter((id) => next.has(id));
  const kept = rows.filter((row) => previous.has(row.id)).map((row) => row.id);
  const appendedOnly = rows.slice(0, kept.length).every((row, index) => row.id === kept[index]);
  const reordered = !appendedOnly || previousOrder.some((id, index) => id !== kept[index]);
  if (upserts.length === 0 && removes.length === 0 && !reordered) return null;
  return { upserts, removes, ...(reordered ? { order: rows.map((row) => row.id) } : {}) };
}
