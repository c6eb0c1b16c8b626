import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { registerCheckinMutations, resendUnanswered } from '../features/checkin/offline-scans';
import { LocaleProvider } from '../lib/i18n';
import { offlineCacheMaxAge, persistOptionsFor, saveLiveQueries } from '../lib/offline-cache';
import { router } from './router';

// Kept as long as the offline cache keeps them, so a screen seen days ago still opens offline.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, gcTime: offlineCacheMaxAge } },
});

// TanStack Query takes itself for online until an `offline` event, and a page opened with no network
// has had none: its server queries would fail instead of waiting for the network.
onlineManager.setOnline(navigator.onLine);

registerCheckinMutations(queryClient);
saveLiveQueries(queryClient);
const persistOptions = persistOptionsFor(queryClient);

/** The system's fonts; Japanese and Arabic get web fonts of their own (lib/fonts, app.css). */
const fontFamily = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif';

const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily,
  // Mantine's headings keep a font list of their own unless given one.
  headings: { fontFamily, fontWeight: '700' },
});

function ThemedApp() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-center" />
      <RouterProvider router={router} context={{ queryClient }} />
    </MantineProvider>
  );
}

export function App() {
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
      <LocaleProvider>
        <ThemedApp />
      </LocaleProvider>
    </PersistQueryClientProvider>
  );
}
