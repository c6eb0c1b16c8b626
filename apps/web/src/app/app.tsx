import { onlineManager, QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { registerCheckinMutations, resendUnanswered } from '../features/checkin/offline-scans';
import type { LoadedCatalog } from '../lib/i18n';
import { offlineCacheMaxAge, persistOptionsFor, saveLiveQueries } from '../lib/offline-cache';
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

registerCheckinMutations(queryClient);
saveLiveQueries(queryClient);
const persistOptions = persistOptionsFor(queryClient);

/** The app in the browser: its data cache kept for offline use, over the tree the server also draws. */
export function App({ catalog }: { catalog?: LoadedCatalog }) {
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      // Scans made with no network, restored from the offline cache: sent now if the network is back.
      onSuccess={() => {
        void queryClient.resumePausedMutations();
        resendUnanswered(queryClient);
      }}
    >
      <AppTree router={router} queryClient={queryClient} catalog={catalog} />
    </PersistQueryClientProvider>
  );
}
