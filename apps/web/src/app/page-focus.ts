import { useRouter } from '@tanstack/react-router';
import { useEffect, type RefObject } from 'react';

/** How long a screen may take to show its heading (a lazy chunk, a first answer) before the focus goes to the page itself. */
const headingWait = 3_000;

/**
 * Whether the focus is where the navigation left it, nowhere useful: on the page's body, on an
 * element the new screen removed, or outside the page's content (the header's link that was
 * followed, a menu's item) and not in a dialog. A screen that put the focus somewhere itself (the
 * scanner's field) keeps it.
 */
function focusIsLost(main: HTMLElement) {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) return true;
  // A dialog opened meanwhile (drawn outside the page's content) keeps the focus it took.
  return !main.contains(active) && !active.closest('[role="dialog"]');
}

function focusQuietly(element: HTMLElement) {
  // Focusable by script only: not a stop for Tab, and no focus ring drawn around a heading (app.css).
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
}

/**
 * After each navigation inside the app, the focus goes to the new screen's main heading, so that a
 * screen reader starts reading the screen the person asked for (a full page load starts there by
 * itself), and Tab goes on from there. It waits for the heading while the screen loads, and gives
 * the focus to the page's content when no heading comes.
 */
export function useFocusOnNavigation(main: RefObject<HTMLElement | null>) {
  const router = useRouter();
  useEffect(() => {
    let stopWaiting = () => {};
    // The heading on screen when a navigation starts: the new screen's is another element.
    let headingBefore: Element | null = null;
    const unsubscribeStart = router.subscribe('onBeforeNavigate', () => {
      headingBefore = main.current?.querySelector('h1') ?? null;
    });
    const unsubscribe = router.subscribe('onRendered', ({ fromLocation, pathChanged }) => {
      stopWaiting();
      const content = main.current;
      if (!fromLocation || !pathChanged || !content) return;
      const focusHeading = () => {
        const heading = content.querySelector<HTMLElement>('h1');
        if (!heading || heading === headingBefore) return false;
        if (focusIsLost(content)) focusQuietly(heading);
        return true;
      };
      if (focusHeading()) return;
      const observer = new MutationObserver(() => {
        if (focusHeading()) stopWaiting();
      });
      const timer = window.setTimeout(() => {
        stopWaiting();
        if (focusIsLost(content)) focusQuietly(content);
      }, headingWait);
      stopWaiting = () => {
        observer.disconnect();
        window.clearTimeout(timer);
        stopWaiting = () => {};
      };
      observer.observe(content, { childList: true, subtree: true });
    });
    return () => {
      stopWaiting();
      unsubscribeStart();
      unsubscribe();
    };
  }, [router, main]);
}
