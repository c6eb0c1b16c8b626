import type { LiveRow } from '@admit/shared/live';
import { rowChanges } from './row-changes';
import type { LoadedRows } from './shared-loads';

/** Each row's JSON by id, in the query's order: what a subscriber has. Never changed once made, so it can be shared. */
export type SentRows = ReadonlyMap<string, string>;

/** What a read means for a subscriber: the rows it has after it, and the changes to send (their JSON), if any. */
export interface Outcome {
  rows: SentRows;
  /** The fields of a `changes` message besides its type, id and version, as JSON without braces; null when nothing changed. */
  changes: string | null;
}

/**
 * What one read changed, worked out once for every subscriber that had the same rows before it.
 * The subscriptions a change wakes share their read (shared-loads.ts), and most had shared the read
 * before too: 1,000 listeners of one event then cost one comparison and one serialisation, not
 * 1,000. The rows a subscriber has are never changed in place, only replaced: two subscribers may
 * hold the same ones.
 */
export class SharedChanges {
  private readonly outcomes = new WeakMap<LoadedRows, Map<SentRows, Outcome>>();

  /** After a read of the whole list: what was added, changed, removed or moved. */
  whole(previous: SentRows, loaded: LoadedRows): Outcome {
    return this.once(previous, loaded, () => {
      const changes = rowChanges(previous, loaded.rows, loaded.next);
      return {
        rows: loaded.next,
        changes: changes && changesJson(loaded, changes.upserts, changes.removes, changes.order),
      };
    });
  }

  /** After a read of some rows by their keys: each one new or changed; nothing is removed or reordered. */
  keyed(previous: SentRows, loaded: LoadedRows): Outcome {
    return this.once(previous, loaded, () => {
      const upserts = loaded.rows.filter((row) => previous.get(row.id) !== loaded.next.get(row.id));
      if (upserts.length === 0) return { rows: previous, changes: null };
      const rows = new Map(previous);
      for (const row of upserts) rows.set(row.id, loaded.next.get(row.id)!);
      return { rows, changes: changesJson(loaded, upserts, [], undefined) };
    });
  }

  private once(previous: SentRows, loaded: LoadedRows, work: () => Outcome): Outcome {
    let byPrevious = this.outcomes.get(loaded);
    if (!byPrevious) this.outcomes.set(loaded, (byPrevious = new Map()));
    let outcome = byPrevious.get(previous);
    if (!outcome) byPrevious.set(previous, (outcome = work()));
    return outcome;
  }
}

/** Rows as JSON, from the JSON the read already made of each one. */
export function rowsJson(loaded: LoadedRows, rows: readonly LiveRow[] = loaded.rows): string {
  return `[${rows.map((row) => loaded.next.get(row.id)!).join(',')}]`;
}

function changesJson(loaded: LoadedRows, upserts: readonly LiveRow[], removes: string[], order: string[] | undefined) {
  const fields = `"upserts":${rowsJson(loaded, upserts)},"removes":${JSON.stringify(removes)}`;
  return order ? `${fields},"order":${JSON.stringify(order)}` : fields;
}
