import type { LiveRow } from '@admit/shared/live';
import type { LiveContext, LiveQuery } from './live-query';

/** A query's rows as read, and each row as sent (JSON), by id: what the next read is compared with. */
export interface LoadedRows {
  rows: LiveRow[];
  next: Map<string, string>;
}

/**
 * Reads of live queries in flight, shared by identical subscriptions: a change that wakes 1,000
 * listeners of one list reads it once. Only reads that started after the latest notification are
 * shared (renew() on each one): such a read sees every commit announced so far.
 */
export class SharedLoads {
  private loads = new Map<string, Promise<LoadedRows>>();

  /** Forgets the reads under way: those that start from now on see every commit announced so far. */
  renew() {
    this.loads = new Map();
  }

  /** The query's rows for these params and this person (all of them, or those of `keys`), parsed by its contract. */
  read(query: LiveQuery, params: unknown, ctx: LiveContext, keys: Map<string, string[]> | null): Promise<LoadedRows> {
    // The rows depend on the query, its params, who asks (load checks permissions) and the keys asked for: nothing else.
    const named = keys ? JSON.stringify([...keys].map(([topic, list]) => [topic, [...list].sort()])) : '';
    const key = `${query.contract.name}\n${JSON.stringify(params)}\n${ctx.user?.id ?? ''}\n${named}`;
    const loads = this.loads;
    const shared = loads.get(key);
    if (shared) return shared;
    const reading = keys ? query.keyed!.load(params, keys, ctx) : query.load(params, ctx);
    const loading = reading.then((loaded) => {
      const rows = loaded.map((row) => query.contract.row.parse(row));
      return { rows, next: new Map(rows.map((row) => [row.id, JSON.stringify(row)])) };
    });
    loads.set(key, loading);
    // Shared only while in flight: rows kept longer would miss what changes without a topic (now()).
    const settled = () => void (loads.get(key) === loading && loads.delete(key));
    loading.then(settled, settled);
    return loading;
  }
}
