import { keepDraftsOnScreen } from './kept-drafts';

/**
 * After a new build is served, a page opened on an earlier one asks for chunks by the names it was
 * built with. The server keeps those of the last builds (decision 0058); when one still does not
 * load with the network up, the page reloads once, at the address it was going to, so the person
 * lands on the screen they asked for, on the new build, with what the address holds (its search and
 * filters); what they had typed into the forms on screen is back when they return to them
 * (lib/kept-drafts.ts). Once per build: a page that reloaded and still finds a chunk missing shows
 * the route's error instead of reloading again.
 */
const reloadedForKey = 'admit.reloaded-for-build';
let reloading = false;

/** The build this page runs: the address of its entry script, whose name changes with any chunk's. */
function thisBuild(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? 'development';
}

/** Reloads the page for a chunk that did not load, unless it already did for this build; whether it does. */
export function reloadForMissingChunk(): boolean {
  if (reloading) return true;
  // The server's drawing of a first view has no page to reload.
  if (typeof window === 'undefined') return false;
  // With no network, the chunk is missing for that reason: the route says so, and the page stays.
  if (!navigator.onLine) return false;
  try {
    if (sessionStorage.getItem(reloadedForKey) === thisBuild()) return false;
    sessionStorage.setItem(reloadedForKey, thisBuild());
  } catch {
    // No session storage: nothing would stop a second reload, so none.
    return false;
  }
  reloading = true;
  // Now, while the screen that was left is still drawn, and again at the reload for what is typed meanwhile.
  keepDraftsOnScreen();
  void nextWorkerFirst().then(() => {
    keepDraftsOnScreen();
    location.reload();
  });
  return true;
}

/**
 * Lets the service worker of the new build take over before the page reloads: the old one would
 * answer the reload with the old build's page from its precache.
 */
async function nextWorkerFirst() {
  const registration =
    'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration().catch(() => undefined) : undefined;
  if (!registration?.active) return;
  const controlled = new Promise((resolve) =>
    navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
  );
  const waited = new Promise((resolve) => setTimeout(resolve, 10_000));
  await registration.update().catch(() => undefined);
  // A worker of a new build installs, then takes the page (skipWaiting, clientsClaim); none: no wait.
  if (registration.installing || registration.waiting) await Promise.race([controlled, waited]);
}

/**
 * Every chunk loaded through Vite's import helper (screens, parts, message catalogs) that fails says
 * so with this event.
 */
export function reloadOnMissingChunks() {
  window.addEventListener('vite:preloadError', () => void reloadForMissingChunk());
}

/**
 * A chunk's loader that, when the page reloads for it, waits for the reload rather than showing an
 * error for an instant. Else the error goes on in words of its own: the router would otherwise take
 * it for a missing module and reload once more.
 */
export function loadOrReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (reloadForMissingChunk()) return new Promise<T>(() => {});
      throw new Error('A part of the app could not be loaded', { cause: error });
    });
}
