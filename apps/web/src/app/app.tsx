import { createTheme, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { registerCheckinMutations, resendUnanswered } from '../features/checkin/offline-scans';
import { LocaleProvider } from '../lib/i18n';
import { offlineCacheMaxAge, persistOptionsFor, saveLiveQueries } from '../lib/offline-cache';
import { lazy, Suspense, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { router } from './router';

// The toasts' container, its transitions and portal: nothing to show at the first paint. The store that
// `notifications.show` writes to keeps what comes before it is mounted (decision 0042).
const Notifications = lazy(async () => ({ default: (await import('@mantine/notifications')).Notifications }));

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
  // Indigo 8 on white is 5.7:1, links and buttons pass WCAG AA's 4.5:1 (Mantine's default, 6, is 4.3:1).
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily,
  // Mantine's headings keep a font list of their own unless given one.
  headings: { fontFamily, fontWeight: '700' },
});

function ThemedApp() {
  const intl = useIntl();
  const close = intl.formatMessage({ id: 'common.close', defaultMessage: 'Close' });
  // The close buttons Mantine draws in dialogs and notifications have no name of their own: a screen
  // reader would announce "button" alone.
  const themed = useMemo(
    () =>
      mergeThemeOverrides(
        theme,
        createTheme({
          components: {
            Modal: { defaultProps: { closeButtonProps: { 'aria-label': close } } },
            Notification: { defaultProps: { closeButtonProps: { 'aria-label': close } } },
          },
        }),
      ),
    [close],
  );
  return (
    <MantineProvider theme={themed} defaultColorScheme="auto">
      <Suspense fallback={null}>
        <Notifications position="top-center" />
      </Suspense>
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
