import { useEffect, type RefObject } from 'react';

// The page inside another site's frame (/embed/…, decision 0061): it tells embed.js, on the host
// page, how tall it is and when to close, and counts that page's site as where its visitors came from.

/** Whether this page is the embedded checkout. */
export const isEmbedded = () => typeof location !== 'undefined' && location.pathname.startsWith('/embed/');

/** The origin of the page embedding this one, as embed.js passed it (`?source=`); null outside a frame. */
export function embeddingSite(): string | null {
  if (!isEmbedded() || window.parent === window) return null;
  const given = new URLSearchParams(location.search).get('source');
  try {
    const url = new URL(given ?? '');
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === given ? url.origin : null;
  } catch {
    return null;
  }
}

/** Tells the host page something; only the page of the origin embed.js named can read it. */
export function tellHost(message: { admit: 'height'; height: number } | { admit: 'close' }) {
  const site = embeddingSite();
  if (site) window.parent.postMessage(message, site);
}

/** Keeps the host's frame as tall as what `content` shows, as it grows and shrinks. */
export function useHostHeight(content: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = content.current;
    if (!element || !embeddingSite()) return;
    let last = 0;
    const measure = () => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      tellHost({ admit: 'height', height });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, [content]);
}
