import type { QueryClient } from '@tanstack/react-query';
import type { PersistedClient, Persister, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { del, get, set } from 'idb-keyval';

/**
 * What the app has shown, kept for when there is no network (DESIGN §3.3): the rows of every live
 * query, as the TanStack Query cache holds them, in IndexedDB. A reload with no network renders
 * every screen seen before from here. Signing out deletes it.
 */
const cacheKey = 'admit.offline-cache';
/** The person the cache belongs to, for a reload with no network (the session cannot be asked for). */
const sessionKey = 'admit.offline-session';

/** Kept for a week; a new build with another cache shape would change `buster`. */
export const offlineCacheMaxAge = 7 * 24 * 60 * 60 * 1000;

/**
 * Writing to IndexedDB copies the whole cache (a door's 10,000 attendees included), and the cache
 * changes several times per scan: at most one write a second, the newest state, and at once when
 * the page is hidden or closed (bench/scanner-10k). Scans themselves are also in the scan log,
 * written synchronously, so none is lost in that second.
 */
const saveEveryMs = 1000;
let unsaved: PersistedClient | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
function saveNow() {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (!unsaved) return;
  const client = unsaved;
  unsaved = undefined;
  void set(cacheKey, client);
}
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', saveNow);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && saveNow());
}

const persister: Persister = {
  persistClient: (client: PersistedClient) => {
    unsaved = client;
    saveTimer ??= setTimeout(saveNow, saveEveryMs);
  },
  restoreClient: () => get<PersistedClient>(cacheKey),
  removeClient: () => {
    unsaved = undefined;
    clearTimeout(saveTimer);
    saveTimer = undefined;
    return del(cacheKey);
  },
};

export const persistOptions: Omit<PersistQueryClientOptions, 'queryClient'> = {
  persister,
  maxAge: offlineCacheMaxAge,
  buster: 'live-v1',
  // Only what the live channel delivered: rows a person has seen, nothing half-loaded.
  dehydrateOptions: {
    shouldDehydrateQuery: (query) => query.queryKey[0] === 'live' && query.state.status === 'success',
  },
};

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
  await persister.removeClient();
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
