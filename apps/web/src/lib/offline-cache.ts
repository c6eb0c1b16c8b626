import type { Query, QueryClient } from '@tanstack/react-query';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { del, delMany, get, getMany, keys, set, setMany } from 'idb-keyval';
import { offlineCacheMaxAge } from './offline-person';

/**
 * What the app has shown, kept for when there is no network (decision 0024): the rows of every live
 * query, as the TanStack Query cache holds them, in IndexedDB, each query under its own key
 * (`admit.live:<query hash>`, its rows in chunks) and written only when its own rows change; and, under one key, the
 * writes waiting for the network (paused mutations), through TanStack's persist-client. A reload
 * with no network renders every screen seen before from here. Signing out deletes it. Not in a
 * page's first load: app/offline.ts loads it, and the person it belongs to is in lib/offline-person.ts.
 */
const cacheKey = 'admit.offline-cache';
const livePrefix = 'admit.live:';

/**
 * IndexedDB copies what it stores, on the page's own thread, and a door's list holds 10,000
 * attendees: a write of everything on every change took a third of a slowed phone's time per scan
 * (bench/scanner-10k). So each live query is written alone, when its rows changed, at most once a
 * second, and at once when the page is hidden or closed; the paused mutations likewise. A query's
 * rows are kept in chunks of `chunkRows` under keys of their own, and only the chunks holding a
 * changed row are written again: the live channel and TanStack's structural sharing keep every
 * unchanged row the same object, so one admission rewrites one chunk, not the list. Scans are also
 * in the scan log, written synchronously, so none is lost in that second.
 */
const saveEveryMs = 1000;
const chunkRows = 250;
/** A live query's entry: where its rows are (`chunks` keys `<key>#<n>`), or the data itself when it is not a list. */
interface SavedLiveQuery {
  queryKey: readonly unknown[];
  dataUpdatedAt: number;
  chunks?: number;
  data?: unknown;
}
const unsavedLive = new Map<string, { queryKey: readonly unknown[]; data: unknown; dataUpdatedAt: number }>();
/** The rows as last written, per query hash: a chunk whose rows are all the same objects is not written again. */
const savedRows = new Map<string, readonly unknown[]>();
let unsaved: PersistedClient | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** The live rows' writes to IndexedDB, one after the other. */
let writing: Promise<void> = Promise.resolve();

const chunkKey = (hash: string, index: number) => `${livePrefix}${hash}#${index}`;
const isChunkKey = (key: IDBValidKey) => String(key).includes('#');

/**
 * What brings the saved copy of a query up to `data`: the entries to write (the query's own, and the
 * chunks that changed) and the chunk keys to delete (a list that got shorter).
 */
function liveEntries(
  hash: string,
  queryKey: readonly unknown[],
  data: unknown,
  dataUpdatedAt: number,
): { put: [string, unknown][]; drop: string[] } {
  const before = savedRows.get(hash);
  const chunksBefore = before === undefined ? 0 : Math.ceil(before.length / chunkRows);
  const chunks = Array.isArray(data) ? Math.ceil(data.length / chunkRows) : 0;
  const drop = Array.from({ length: Math.max(0, chunksBefore - chunks) }, (_, offset) => chunkKey(hash, chunks + offset));
  if (!Array.isArray(data)) {
    savedRows.delete(hash);
    return { put: [[livePrefix + hash, { queryKey, dataUpdatedAt, data } satisfies SavedLiveQuery]], drop };
  }
  const put: [string, unknown][] = [[livePrefix + hash, { queryKey, dataUpdatedAt, chunks } satisfies SavedLiveQuery]];
  for (const index of changedChunks(before, data, chunkRows)) {
    put.push([chunkKey(hash, index), data.slice(index * chunkRows, (index + 1) * chunkRows)]);
  }
  savedRows.set(hash, data);
  return { put, drop };
}

/**
 * Which chunks of `size` rows of `rows` differ from those of `before` (rows compared by identity):
 * all of them when nothing was written before; none when nothing changed.
 */
export function changedChunks(before: readonly unknown[] | undefined, rows: readonly unknown[], size: number): number[] {
  const changed: number[] = [];
  for (let index = 0; index * size < rows.length; index++) {
    const start = index * size;
    const end = Math.min(rows.length, start + size);
    let same = before !== undefined && Math.min(before.length, start + size) === end;
    for (let at = start; same && at < end; at++) same = before![at] === rows[at];
    if (!same) changed.push(index);
  }
  return changed;
}

function saveNow() {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (unsavedLive.size > 0) {
    const pending = [...unsavedLive];
    unsavedLive.clear();
    // One write at a time, each compared with what the one before it wrote.
    writing = writing.then(async () => {
      const put: [string, unknown][] = [];
      const drop: string[] = [];
      for (const [hash, saved] of pending) {
        const entries = liveEntries(hash, saved.queryKey, saved.data, saved.dataUpdatedAt);
        put.push(...entries.put);
        drop.push(...entries.drop);
      }
      try {
        await setMany(put);
        if (drop.length > 0) await delMany(drop);
      } catch {
        // Not written (storage full, a closing page): the next write of those queries writes every chunk.
        for (const [hash] of pending) savedRows.delete(hash);
      }
    });
  }
  if (unsaved) {
    void set(cacheKey, unsaved);
    unsaved = undefined;
  }
}
const saveSoon = () => {
  saveTimer ??= setTimeout(saveNow, saveEveryMs);
};
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', saveNow);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && saveNow());
}

let restoring = false;

/** Keeps each live query's rows as they arrive (call once, with the app's query client). */
export function saveLiveQueries(queryClient: QueryClient) {
  const keep = (query: Query) => {
    unsavedLive.set(query.queryHash, {
      queryKey: query.queryKey,
      data: query.state.data,
      dataUpdatedAt: query.state.dataUpdatedAt,
    });
    saveSoon();
  };
  // The rows already in the cache: the first view's, which came with the page before this module.
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['live'] }))
    if (query.state.status === 'success') keep(query);
  queryClient.getQueryCache().subscribe((event) => {
    if (restoring || event.type !== 'updated' || event.action.type !== 'success') return;
    if (event.query.queryKey[0] === 'live') keep(event.query);
  });
}

async function restoreLiveQueries(queryClient: QueryClient) {
  const saved = (await keys()).filter((key) => String(key).startsWith(livePrefix) && !isChunkKey(key));
  const entries = await getMany<SavedLiveQuery | undefined>(saved);
  const restored = await Promise.all(
    entries.map(async (entry, index) => {
      if (!entry || Date.now() - entry.dataUpdatedAt > offlineCacheMaxAge) return undefined;
      if (entry.chunks === undefined) return { entry, data: entry.data };
      const hash = String(saved[index]).slice(livePrefix.length);
      const chunks = await getMany<unknown[] | undefined>(Array.from({ length: entry.chunks }, (_, n) => chunkKey(hash, n)));
      // A chunk missing (a write cut short): the query is not restored rather than restored with holes.
      if (chunks.some((chunk) => chunk === undefined)) return undefined;
      const rows = chunks.flat();
      savedRows.set(hash, rows);
      return { entry, data: rows };
    }),
  );
  restoring = true;
  try {
    for (const one of restored) {
      if (!one) continue;
      // The live channel may have answered while the saved copy was read: the newer rows stay.
      const current = queryClient.getQueryState(one.entry.queryKey);
      if (current && current.dataUpdatedAt >= one.entry.dataUpdatedAt) continue;
      queryClient.setQueryData(one.entry.queryKey, one.data, { updatedAt: one.entry.dataUpdatedAt });
    }
  } finally {
    restoring = false;
  }
}

const persisterFor = (queryClient: QueryClient): Persister => ({
  persistClient: (client: PersistedClient) => {
    unsaved = client;
    saveSoon();
  },
  restoreClient: async () => {
    await restoreLiveQueries(queryClient);
    return get<PersistedClient>(cacheKey);
  },
  removeClient: async () => {
    unsaved = undefined;
    unsavedLive.clear();
    clearTimeout(saveTimer);
    saveTimer = undefined;
    // A write under way would put back what is deleted here.
    await writing;
    savedRows.clear();
    await del(cacheKey);
    await delMany((await keys()).filter((key) => String(key).startsWith(livePrefix)));
  },
});

/** For PersistQueryClientProvider: the paused mutations (the live rows are saved per query, above). */
export const persistOptionsFor = (queryClient: QueryClient): Omit<PersistQueryClientOptions, 'queryClient'> => ({
  persister: persisterFor(queryClient),
  maxAge: offlineCacheMaxAge,
  buster: 'live-v2',
  dehydrateOptions: { shouldDehydrateQuery: () => false },
});

const clearers = new Set<() => void>();

/** For features that keep their own offline data (the scanner's log): cleared with the rest. */
export function onOfflineDataCleared(clear: () => void) {
  clearers.add(clear);
}

/**
 * Forgets everything this device kept for the person (on sign-out, or when the session is gone):
 * what lib/offline-person.ts's `forgetOfflineData` runs once this module is loaded.
 */
export async function clearOfflineData(queryClient: QueryClient) {
  // Only what was the person's: the live rows and the writes waiting for the network. Other queries
  // (the sign-in methods the page is showing) stay, or their screens would lose them.
  queryClient.removeQueries({ queryKey: ['live'] });
  queryClient.getMutationCache().clear();
  for (const clear of clearers) clear();
  await persisterFor(queryClient).removeClient();
}
