import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { CDPSession, Page } from 'playwright-core';

/**
 * When a page answers a tap, as Lighthouse reckons it: long tasks (over 50 ms of main thread, the
 * `longtask` entries) are recorded from the page's first instant; time to interactive is the end of
 * the last one before a quiet window (no long task for `quietMs`) after the first contentful paint,
 * and total blocking time is what each long task after that paint held the thread beyond 50 ms.
 */
export const quietMs = 5000;

/** Runs in the page before its own scripts (an init script). */
export const longTaskProbe = () => {
  const tasks: { start: number; duration: number }[] = [];
  (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
};

export interface Interactivity {
  ttiMs: number;
  tbtMs: number;
  longTasks: number;
  /** The main thread's time in script (CDP's `ScriptDuration`), in throttled time. */
  scriptMs: number;
}

/** Waits for the quiet window (at most 20 s past the network's) and reckons the figures. */
export async function interactivity(page: Page, cdp: CDPSession, fcpMs: number): Promise<Interactivity> {
  const read = () =>
    page.evaluate(() => ({
      tasks: (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks,
      now: performance.now(),
      domContentLoaded:
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.domContentLoadedEventEnd ?? 0,
    }));
  const lastEnd = (tasks: { start: number; duration: number }[]) =>
    Math.max(0, ...tasks.map((task) => task.start + task.duration));
  let state = await read();
  for (let waited = 0; state.now - Math.max(lastEnd(state.tasks), fcpMs) < quietMs && waited < 20_000; waited += 250) {
    await page.waitForTimeout(250);
    state = await read();
  }
  const afterPaint = state.tasks.filter((task) => task.start + task.duration > fcpMs);
  const { metrics } = await cdp.send('Performance.getMetrics');
  const scriptSeconds = metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0;
  return {
    ttiMs: Math.round(Math.max(fcpMs, state.domContentLoaded, lastEnd(afterPaint))),
    tbtMs: Math.round(
      afterPaint.reduce((total, task) => total + Math.max(0, task.start + task.duration - Math.max(task.start, fcpMs) - 50), 0),
    ),
    longTasks: afterPaint.length,
    scriptMs: Math.round(scriptSeconds * 1000),
  };
}

/**
 * A busy machine: one process per core spinning for as long as the pass lasts, so that the page's
 * work competes with other work for the cores, as it does on a phone running other apps.
 */
export function startBurners(): { stop(): void } {
  const burners: ChildProcess[] = os.cpus().map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return { stop: () => burners.forEach((burner) => burner.kill()) };
}
