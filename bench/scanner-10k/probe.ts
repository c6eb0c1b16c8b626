// The in-page half of bench/scanner-10k: a plain script (a string, so that nothing the bench's
// TypeScript compiler adds ends up in the page) that the browser runs before the app, via
// `context.addInitScript`. Every time is `performance.now()` in the page, so no Playwright round
// trip is in any figure.
//
//   - load: when the field "Ticket code or name" first exists (the page shows a loader until the
//     scanner kit and the attendee list have arrived) and when the count "… of 10,000 checked in"
//     first shows, from the start of the navigation (performance.now() counts from there);
//   - scans: from the Enter keydown on the field (a capture listener on the document, which runs
//     before React's listener on its root) to the moment a new [data-testid="scan-verdict"]
//     element is in the DOM (the verdict is keyed by scan, so each scan inserts a new one), and to
//     the frame that paints it (the next requestAnimationFrame callback, then a message-channel
//     task, which runs after that frame's paint);
//     That last figure also holds whatever tasks were queued before the message (React's and
//     TanStack Query's own, timers), so it is an upper bound of the paint;
//   - and the browser's own measure of the same thing (Event Timing, what Core Web Vitals' INP
//     reads): each key event's start (the moment the browser received the key) plus its duration,
//     which ends when the next frame after the event's handlers is presented;
//   - searches: from the field's input event to the moment the table "People found" is in the DOM
//     with rows for the new text, and to its frame, as above.

export interface ProbeTiming {
  label: string;
  result: string | null;
  domMs: number;
  paintedMs: number;
  /** The Enter keydown's event.timeStamp (for scans), to find its Event Timing entries. */
  stamp?: number;
  /** When the verdict was in the DOM (performance.now()), for scans. */
  domAt?: number;
  /** Filled in by the bench from the Event Timing entries: the key received → the next frame presented. */
  nextPaintMs?: number;
  /** Whether the verdict was in the DOM before that frame (its key events' handlers ended after it got there). */
  verdictInNextPaint?: boolean;
}

/** A PerformanceEventTiming entry of a key event. */
export interface ProbeEvent {
  name: string;
  startTime: number;
  duration: number;
  processingEnd: number;
  interactionId: number;
}

export interface ProbeState {
  fieldAt: number | null;
  countsAt: number | null;
  countsText: string | null;
  scans: ProbeTiming[];
  searches: ProbeTiming[];
  events: ProbeEvent[];
  /** Set by the bench while it measures searches (so that typing a code is not timed as one). */
  searching?: boolean;
}

declare global {
  interface Window {
    __bench: ProbeState;
  }
}

export const probeScript = String.raw`
(() => {
  const state = { fieldAt: null, countsAt: null, countsText: null, scans: [], searches: [], events: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name.startsWith('key'))
        state.events.push({
          name: entry.name,
          startTime: entry.startTime,
          duration: entry.duration,
          processingEnd: entry.processingEnd,
          interactionId: entry.interactionId,
        });
  }).observe({ type: 'event', durationThreshold: 16 });
  window.__bench = state;
  let pending = null;
  const afterPaint = (callback) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => callback(performance.now());
      channel.port2.postMessage(null);
    });
  const isField = (target) =>
    target instanceof HTMLInputElement && !!target.labels && [...target.labels].some((label) => label.textContent.startsWith('Ticket code or name'));
  const check = () => {
    const now = performance.now();
    if (state.fieldAt === null) {
      const field = [...document.querySelectorAll('input')].find(isField);
      if (field) state.fieldAt = now;
    }
    if (state.countsAt === null) {
      const counts = document.querySelector('[data-testid="checked-in-total"]');
      if (counts && /checked in/.test(counts.textContent) && !/^0 of 0 /.test(counts.textContent)) {
        state.countsAt = now;
        state.countsText = counts.textContent;
      }
    }
    if (!pending) return;
    if (pending.kind === 'scan') {
      const verdict = document.querySelector('[data-testid="scan-verdict"]');
      if (!verdict || verdict === pending.before) return;
      const done = pending;
      pending = null;
      afterPaint((painted) =>
        state.scans.push({ label: done.label, result: verdict.getAttribute('data-result'), domMs: now - done.at, paintedMs: painted - done.at, stamp: done.stamp, domAt: now }),
      );
    } else {
      const table = document.querySelector('table[aria-label="People found"]');
      if (!table || table.rows.length === 0) return;
      const done = pending;
      pending = null;
      afterPaint((painted) =>
        state.searches.push({ label: done.label, result: String(table.rows.length), domMs: now - done.at, paintedMs: painted - done.at }),
      );
    }
  };
  const observer = new MutationObserver(check);
  const start = () => observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key !== 'Enter' || !isField(event.target)) return;
      pending = { kind: 'scan', at: performance.now(), stamp: event.timeStamp, label: event.target.value, before: document.querySelector('[data-testid="scan-verdict"]') };
    },
    true,
  );
  document.addEventListener(
    'input',
    (event) => {
      if (!isField(event.target) || event.target.value.trim().length < 2 || !state.searching) return;
      pending = { kind: 'search', at: performance.now(), label: event.target.value };
    },
    true,
  );
})();
`;
