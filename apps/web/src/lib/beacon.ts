import type { Beacon, FunnelStep } from '@admit/shared/analytics';
import { useEffect } from 'react';
import { embeddingSite } from './embed-frame';

// The public pages' analytics (decision 0038): one beacon per funnel step and event per page
// load, sent with navigator.sendBeacon so that leaving the page does not lose it. Nothing is
// stored in the browser; a person who asks not to be tracked (Do-Not-Track, Global Privacy
// Control) sends nothing at all.

const sent = new Set<string>();

function asksNotToBeTracked() {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** Where this visit came from: the other site's address and the link's campaign (view only). */
function origin(): Pick<Beacon, 'referrer' | 'utm'> {
  const params = new URLSearchParams(location.search);
  const utm = {
    source: params.get('utm_source')?.slice(0, 100) || undefined,
    medium: params.get('utm_medium')?.slice(0, 100) || undefined,
    campaign: params.get('utm_campaign')?.slice(0, 100) || undefined,
  };
  // In another site's frame, that site brought the visitor (decision 0061).
  const referrer = embeddingSite() ?? document.referrer;
  return {
    referrer: referrer ? referrer.slice(0, 2_000) : undefined,
    utm: utm.source || utm.medium || utm.campaign ? utm : undefined,
  };
}

/**
 * Sends the step for the event, once per page load. Checkout and paid name their order: the server
 * counts those steps from the orders, and the beacon only says which source brought the order.
 */
export function sendStep(eventId: string, step: FunnelStep, orderId?: string) {
  const key = `${eventId}:${step}:${orderId ?? ''}`;
  if (sent.has(key) || asksNotToBeTracked()) return;
  sent.add(key);
  const beacon: Beacon = { eventId, step, ...(step === 'view' ? origin() : {}), ...(orderId ? { orderId } : {}) };
  const body = JSON.stringify(beacon);
  try {
    if (navigator.sendBeacon?.('/a', body)) return;
    void fetch('/a', { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => undefined);
  } catch {
    // Analytics never stand in a buyer's way.
  }
}

/** Sends the step once the event is known and `when` holds. */
export function useStep(eventId: string | undefined, step: FunnelStep, when = true) {
  useEffect(() => {
    if (eventId && when) sendStep(eventId, step);
  }, [eventId, step, when]);
}
