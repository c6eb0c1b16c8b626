import type { QueryClient } from '@tanstack/react-query';

// Who this device last saw signed in, for a reload with no network (the session cannot be asked for
// then), and the forgetting of everything kept for them. This is in every page's first load; the
// offline cache itself (lib/offline-cache.ts) loads in a chunk of its own once the app has started
// (app/offline.ts), and forgetting waits for it.

const sessionKey = 'admit.offline-session';

/** What is kept, kept for a week (lib/offline-cache.ts; a new build with another shape changes its `buster`). */
export const offlineCacheMaxAge = 7 * 24 * 60 * 60 * 1000;

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

type Clear = (queryClient: QueryClient) => Promise<void>;
let clear: Clear | undefined;
/** Forgetting asked for before the offline cache was loaded: done as it loads. */
const asked: { queryClient: QueryClient; done: () => void }[] = [];

/** Forgets the person and everything this device kept for them (on sign-out, or when the session is gone). */
export function forgetOfflineData(queryClient: QueryClient): Promise<void> {
  localStorage.removeItem(sessionKey);
  if (clear) return clear(queryClient);
  return new Promise((done) => asked.push({ queryClient, done }));
}

/** The offline cache's own forgetting, once it is loaded; resolves when what was asked before is done. */
export async function forgetWith(offlineClear: Clear): Promise<void> {
  clear = offlineClear;
  await Promise.all(asked.splice(0).map(({ queryClient, done }) => offlineClear(queryClient).then(done)));
}
