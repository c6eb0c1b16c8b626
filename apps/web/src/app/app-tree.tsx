import { createTheme, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { Suspense, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { LocaleProvider, type LoadedCatalog } from '../lib/i18n';
import { preloadableLazy } from '../lib/preloadable-lazy';
import type { AppRouter } from './router';

// The app below its data cache, the same in the browser (app.tsx) and for the first view the server
// draws of a public page (entry-server.tsx), so that the browser takes over the server's page as is.

// The toasts' container, its transitions and portal: nothing to show at the first paint. The store that
// `notifications.show` writes to keeps what comes before it is mounted (decision 0042). The server loads
// it before drawing a first view (`loadAppTree`), which would otherwise leave its boundary for the
// browser to draw (React's error 419 in the console).
const Notifications = preloadableLazy(async () => (await import('@mantine/notifications')).Notifications);

/** Loads what the tree draws lazily around every page, for a drawing on the server that is whole. */
export async function loadAppTree() {
  await Notifications.preload();
}

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

function ThemedApp({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
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

/** The language, the theme and the router; `catalog` is the language the first view was drawn in. */
export function AppTree({
  router,
  queryClient,
  catalog,
}: {
  router: AppRouter;
  queryClient: QueryClient;
  catalog?: LoadedCatalog;
}) {
  return (
    <LocaleProvider initial={catalog}>
      <ThemedApp router={router} queryClient={queryClient} />
    </LocaleProvider>
  );
}
