import { IsRestoringProvider, onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LoadedCatalog } from '../lib/i18n';
import { isEmbedded } from '../lib/embed-frame';
import { forgetAtNextStart, offlineCacheMaxAge } from '../lib/offline-person';
import { AppTree } from './app-tree';
import { createAppRouter } from './router';

// Kept as long as the offline cache keeps them, so a screen seen days ago still opens offline.
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, gcTime: offlineCacheMaxAge } },
});

export const router = createAppRouter();

// TanStack Query takes itself for online until an `offline` event, and a page opened with no network
// has had none: its server queries would fail instead of waiting for the network.
onlineManager.setOnline(navigator.onLine);

let restored: Promise<void> | undefined;

/**
 * Starts the offline cache (app/offline.ts, a chunk of its own): restored, then kept; resolves once
 * restored. Not in another site's frame: a checkout there keeps nothing, and its storage may be
 * refused (decision 0061). A page the server drew starts it once the browser is idle after taking
 * the page over, so that reading the device's copy does not hold up the first tap (decision 0069).
 */
export function startOfflineCache(): Promise<void> {
  restored ??= isEmbedded()
    ? Promise.resolve(forgetAtNextStart())
    : import('./offline')
        .then(({ keepOffline }) => keepOffline(queryClient))
        // Its chunk did not come (the network went after the page's own): the page works without it, with
        // nothing kept for offline use until the next load, which also does a forgetting asked for meanwhile.
        .catch((error: unknown) => {
          forgetAtNextStart();
          console.error('The offline cache did not start', error);
        });
  return restored;
}

/**
 * The app in the browser: its data cache, kept for offline use, over the tree the server also draws.
 * A page the browser draws itself (`waitForRestore`) runs its queries once the offline cache is
 * restored, so that a screen seen before opens from it with no network; a page the server drew
 * already has its rows, and is taken over at once.
 */
export function App({ catalog, waitForRestore }: { catalog?: LoadedCatalog; waitForRestore: boolean }) {
  const [restoring, setRestoring] = useState(waitForRestore);
  useEffect(() => {
    if (restoring) void startOfflineCache().finally(() => setRestoring(false));
  }, [restoring]);
  return (
    <QueryClientProvider client={queryClient}>
      <IsRestoringProvider value={restoring}>
        <AppTree router={router} queryClient={queryClient} catalog={catalog} />
      </IsRestoringProvider>
    </QueryClientProvider>
  );
}
