import type { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { registerCheckinMutations, resendUnanswered } from '../features/checkin/offline-scans';
import { clearOfflineData, persistOptionsFor, saveLiveQueries } from '../lib/offline-cache';
import { forgetWith } from '../lib/offline-person';

// What the app keeps for when there is no network (lib/offline-cache.ts) and the scans waiting for
// it: a chunk of its own, loaded as the app starts, so that a public page's first load does not carry
// it and is taken over without waiting for it. A page the browser draws itself waits for the restore
// before its queries run (app.tsx), as TanStack's PersistQueryClientProvider would have it.

/** Restores what this device kept, then saves every change; resolves once restored. */
export async function keepOffline(queryClient: QueryClient): Promise<void> {
  // Restored scans and undos need their functions, registered by key, before they are restored.
  registerCheckinMutations(queryClient);
  saveLiveQueries(queryClient);
  await forgetWith(queryClient, clearOfflineData);
  const options = { queryClient, ...persistOptionsFor(queryClient) };
  try {
    await persistQueryClientRestore(options);
    // Scans made with no network, restored from the offline cache: sent now if the network is back.
    void queryClient.resumePausedMutations();
    resendUnanswered(queryClient);
  } catch {
    // The persister discarded a copy it could not read; what comes next is saved afresh.
  }
  persistQueryClientSubscribe(options);
}
