import type { QueryClient } from '@tanstack/react-query';

// Who this device last saw signed in, for a reload with no network (the session cannot be asked for
// then), and the forgetting of everything kept for them. This is in every page's first load; the
// offline cache itself (lib/offline-cache.ts) loads in a chunk of its own once the app has started
// (app/offline.ts), and forgetting waits for it.

const sessionKey = 'admit.offline-session';

/**
 * The browser's storage, or null where it is kept from this page: a browser that keeps storage from
 * other sites' frames throws on reading `localStorage` in the embedded checkout (decision 0061).
 */
function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

/** What is kept, kept for a week (lib/offline-cache.ts; a new build with another shape changes its `buster`). */
export const offlineCacheMaxAge = 7 * 24 * 60 * 60 * 1000;

export interface OfflineSession {
  user: { id: string; name: string; email: string };
}

export function rememberSession(session: OfflineSession | null) {
  if (session) storage()?.setItem(sessionKey, JSON.stringify({ user: session.user }));
}

export function rememberedSession(): OfflineSession | null {
  try {
    return JSON.parse(storage()?.getItem(sessionKey) ?? 'null') as OfflineSession | null;
  } catch {
    return null;
  }
}

type Clear = (queryClient: QueryClient) => Promise<void>;
/** Set by a forgetting the offline cache has not done yet: it does it as it starts, in this load or the next. */
const forgetKey = 'admit.offline-forget';
let clear: Clear | undefined;
/** Forgettings asked for before the offline cache started, waiting for it. */
const waiting = new Set<() => void>();

/** Forgets the person and everything this device kept for them (on sign-out, or when the session is gone). */
export async function forgetOfflineData(queryClient: QueryClient): Promise<void> {
  storage()?.removeItem(sessionKey);
  storage()?.setItem(forgetKey, 'yes');
  if (!clear) return new Promise((done) => waiting.add(done));
  await clear(queryClient);
  storage()?.removeItem(forgetKey);
}

/**
 * As the offline cache starts (app/offline.ts), before it restores anything: does a forgetting asked
 * for before, then forgets directly from now on.
 */
export async function forgetWith(queryClient: QueryClient, offlineClear: Clear): Promise<void> {
  if (storage()?.getItem(forgetKey)) {
    await offlineClear(queryClient);
    storage()?.removeItem(forgetKey);
  }
  clear = offlineClear;
  releaseWaiting();
}

/**
 * The offline cache could not start in this load (its chunk did not come): a sign-out does not wait
 * for it, and the forgetting it asked for is done as the cache starts in the next load.
 */
export function forgetAtNextStart() {
  releaseWaiting();
}

function releaseWaiting() {
  for (const done of waiting) done();
  waiting.clear();
}
