import type { QueryClient } from '@tanstack/react-query';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { del, delMany, get, getMany, keys, set, setMany } from 'idb-keyval';

/**
 * What the app has shown, kept for when there is no network (DESIGN §3.3): the rows of every live
 * query, as the TanStack Query cache holds them, in IndexedDB, each query under its own key
 * (`admit.live:<query hash>`) and written only when its own rows change; and, under one key, the
 * writes waiting for the network (paused mutations), through TanStack's persist-client. A reload
 * with no network renders every screen seen before from here. Signing out deletes it.
 */
const cacheKey = 'admit.offline-cache';
const livePrefix = 'admit.live:';
/** The person the cache belongs to, for a reload with no network (the session cannot be asked for). */
const sessionKey = 'admit.offline-session';

/** Kept for a week; a new build with another cache shape would change `buster`. */
export const offlineCacheMaxAge = 7 * 24 * 60 * 60 * 1000;

/**
 * IndexedDB copies what it stores, and a door's list holds 10,000 attendees: a write of everything
 * on every change took a third of a slowed phone's time per scan (bench/scanner-10k). So each live
 * query is written alone, when its rows changed, at most once a second, and at once when the page
 * is hidden or closed; the paused mutations likewise. Scans are also in the scan log, written
 * synchronously, so none is lost in that second.
 */
const saveEveryMs = 1000;
interface SavedLiveQuery {
  queryKey: readonly unknown[];
  data: unknown;
  dataUpdatedAt: number;
}
const unsavedLive = new Map<string, SavedLiveQuery>();
let unsaved: PersistedClient | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
function saveNow() {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (unsavedLive.size > 0) {
    void setMany([...unsavedLive].map(([hash, saved]) => [livePrefix + hash, saved]));
    unsavedLive.clear();
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
  queryClient.getQueryCache().subscribe((event) => {
    if (restoring || event.type !== 'updated' || event.action.type !== 'success') return;
    const { query } = event;
    if (query.queryKey[0] !== 'live') return;
    unsavedLive.set(query.queryHash, {
      queryKey: query.queryKey,
      data: query.state.data,
      dataUpdatedAt: query.state.dataUpdatedAt,
    });
    saveSoon();
  });
}

async function restoreLiveQueries(queryClient: QueryClient) {
  const saved = (await keys()).filter((key) => String(key).startsWith(livePrefix));
  const entries = await getMany<SavedLiveQuery | undefined>(saved);
  restoring = true;
  try {
    for (const entry of entries) {
      if (!entry || Date.now() - entry.dataUpdatedAt > offlineCacheMaxAge) continue;
      queryClient.setQueryData(entry.queryKey, entry.data, { updatedAt: entry.dataUpdatedAt });
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

export interface OfflineSession {
  user: { id: string; name: string; email: string };
}

export function rememberSession(session: OfflineSession | null) {
  if (session) localStorage.setItem(sessionKey, JSON.stringify({ user: session.user }));
}

export function rememberedSession(): OfflineSession | null {
  try {
    return JSON.parse(localStorage.getItem(sessionKey) ?? 'null') as OfflineSession | null;
  } catch {
    return null;
  }
}

const clearers = new Set<() => void>();

/** For features that keep their own offline data (the scanner's log): cleared with the rest. */
export function onOfflineDataCleared(clear: () => void) {
  clearers.add(clear);
}

/** Forgets everything this device kept for the person (on sign-out, or when the session is gone). */
export async function clearOfflineData(queryClient: QueryClient) {
  localStorage.removeItem(sessionKey);
  // Only what was the person's: the live rows and the writes waiting for the network. Other queries
  // (the sign-in methods the page is showing) stay, or their screens would lose them.
  queryClient.removeQueries({ queryKey: ['live'] });
  queryClient.getMutationCache().clear();
  for (const clear of clearers) clear();
  await persisterFor(queryClient).removeClient();
}

/** When the newest row on screen arrived: the "as of" time of the offline notice. */
export function savedAt(queryClient: QueryClient): number | null {
  const times = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.queryKey[0] === 'live' && query.state.dataUpdatedAt > 0)
    .map((query) => query.state.dataUpdatedAt);
  return times.length > 0 ? Math.max(...times) : null;
}
