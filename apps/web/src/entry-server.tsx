import type { FirstViewLive, RenderFirstView } from '@admit/shared/first-view';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { AppTree, loadAppTree } from './app/app-tree';
import { createAppRouter } from './app/router';
import { FirstViewTimeZone } from './lib/dates';
import { loadCatalog } from './lib/i18n';
import { FirstViewAsked, liveQueryKey, type LiveQueryAsked } from './lib/live';

// The first view of a public page, drawn on the server with the app's own components (decision
// 0049): the server sends it in the page, and the browser takes it over as is (main.tsx), so that a
// visitor on a slow phone reads the event before the app's scripts have arrived.

/** The pages a visitor opens from a link or a search: the event list and an event's page. */
const publicRoutes = new Set(['/', '/e/$slug']);
/** Each round reads what the last one asked for (the event, then its ticket types…). */
const maxRounds = 4;

export const renderFirstView: RenderFirstView = async ({ url, locale, formatLocale, timeZone, readLive }) => {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [url] }));
  await Promise.all([router.load(), loadAppTree()]);
  const matches = router.state.matches;
  const page = matches.at(-1);
  if (!page || !publicRoutes.has(page.routeId) || matches.some((match) => match.status !== 'success')) return null;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const catalog = await loadCatalog(locale, formatLocale);
  const live: FirstViewLive[] = [];
  /**
   * Queries read already, by cache key. The page's own (the first round's) must be a visitor's to see,
   * or there is no first view (a draft's page, to its organization); a part's that a visitor may not
   * see (a code that opens nothing) stays without rows, and the part shows it loading.
   */
  const read = new Set<string>();
  const view = (asked: Map<string, LiveQueryAsked>) => (
    <FirstViewAsked.Provider value={asked}>
      <FirstViewTimeZone.Provider value={timeZone}>
        <QueryClientProvider client={queryClient}>
          <AppTree router={router} queryClient={queryClient} catalog={catalog} />
        </QueryClientProvider>
      </FirstViewTimeZone.Provider>
    </FirstViewAsked.Provider>
  );
  // The route's loader has loaded the lazy parts the page draws (app/lazy-screen.ts): each drawing is
  // whole, and the last, which asks for nothing new, is the view.
  for (let round = 0; ; round++) {
    const asked = new Map<string, LiveQueryAsked>();
    const html = renderToString(view(asked));
    const unread = [...asked].filter(([key]) => !read.has(key));
    if (unread.length === 0) {
      // The lazy parts' scripts go with the page. Their Mantine styles are the first paint's
      // (app/mantine-first-paint.css); the rest of Mantine's (app/more-styles.ts) comes before the
      // browser takes over, without holding the view back.
      const parts = matches.flatMap((match) => match.staticData.firstViewParts ?? []);
      return { html, data: { locale, formatLocale, timeZone, live }, parts };
    }
    if (round === maxRounds) return null;
    const answers = await Promise.all(
      unread.map(async ([key, { query, params }]) => {
        read.add(key);
        const rows = await readLive(query, params);
        if (rows === null) return false;
        queryClient.setQueryData(liveQueryKey(query, params), rows);
        live.push({ query, params, rows });
        return true;
      }),
    );
    if (round === 0 && answers.includes(false)) return null;
  }
};
