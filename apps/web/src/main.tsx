import './app/mantine-first-paint.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { firstViewDataId, type FirstViewData } from '@admit/shared/first-view';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, queryClient, router, startOfflineCache } from './app/app';
import { FirstViewTimeZone, timeZoneCookie, viewerTimeZone } from './lib/dates';
import { browserFormatLocale, initialLocale, loadCatalog, pseudoChosen } from './lib/i18n';
import { keepLoadedAssets } from './lib/keep-loaded-assets';
import { liveQueryKey } from './lib/live';
import { reloadOnMissingChunks } from './lib/new-build';

// The server tells the next first view it draws the times in this zone (first-view.ts on the server).
document.cookie = `${timeZoneCookie}=${encodeURIComponent(viewerTimeZone())}; path=/; max-age=31536000; samesite=lax`;

/** The first view the server drew of this page (decision 0049), when it was drawn in this browser's language and region. */
function firstViewData(): FirstViewData | null {
  const element = document.getElementById(firstViewDataId);
  if (!element?.textContent || pseudoChosen()) return null;
  const data = JSON.parse(element.textContent) as FirstViewData;
  return data.locale === initialLocale() && data.formatLocale === browserFormatLocale(data.locale) ? data : null;
}

async function start() {
  const root = document.getElementById('root')!;
  const data = firstViewData();
  if (!data) {
    void startOfflineCache();
    createRoot(root).render(
      <StrictMode>
        <App waitForRestore />
      </StrictMode>,
    );
    return;
  }
  // The browser takes over the server's page as is: the same data, language, zone and route first.
  for (const { query, params, rows } of data.live) queryClient.setQueryData(liveQueryKey(query, params), rows);
  const [catalog] = await Promise.all([loadCatalog(data.locale, data.formatLocale), router.load()]);
  // The router draws its matches as on the server (no boundary of its own around them).
  router.ssr = { manifest: undefined };
  hydrateRoot(
    root,
    <StrictMode>
      <FirstViewTimeZone.Provider value={data.timeZone}>
        <App catalog={catalog} waitForRestore={false} />
      </FirstViewTimeZone.Provider>
    </StrictMode>,
  );
  // After the page is taken over and the browser has a moment: the device's copy is not what this page shows.
  afterTakeOver(() => void startOfflineCache());
}

/** Once the browser is idle (at most two seconds from now), or in a task of its own where it cannot tell. */
function afterTakeOver(work: () => void) {
  if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 2000 });
  else setTimeout(work, 200);
}

reloadOnMissingChunks();
void start();
keepLoadedAssets();
