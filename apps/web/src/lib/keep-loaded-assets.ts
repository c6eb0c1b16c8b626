/** The service worker's cache of chunks outside its precache list (vite.config.ts, runtimeCaching). */
const assetCache = 'admit-assets';

/**
 * The service worker keeps a lazy chunk when it fetches it; a chunk this page loaded before the
 * worker took control went past it. Once a worker is active, those are put in its cache too, so a
 * screen seen on the first visit still opens with no network (decision 0042).
 */
export function keepLoadedAssets() {
  if (!('serviceWorker' in navigator) || typeof caches === 'undefined') return;
  void navigator.serviceWorker.ready.then(async () => {
    const urls = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/') && /\.(js|css)$/.test(url.pathname))
      .map((url) => url.pathname);
    const cache = await caches.open(assetCache);
    const missing = (await Promise.all(urls.map(async (url) => ((await cache.match(url)) ? undefined : url)))).filter(
      (url) => url !== undefined,
    );
    // Already in the browser's HTTP cache (a year, immutable): no second download.
    await cache.addAll(missing).catch(() => undefined);
  });
}
