import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser';
import { call, type Caller } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { loadAverage, machine } from '../support/machine';
import { numberOption, repositoryRoot, textOption } from '../support/options';
import { writeResult } from '../support/results';
import { startServer } from '../support/server';
import { round } from '../support/stats';
import { buildHelloWorld, serveStatic } from './hello-world';
import { interactivity, longTaskProbe, quietMs, startBurners, type Interactivity } from './interactive';

// The first load of a public page on a slow phone (decision 0042): the bytes of script and style
// that come before any lazy chunk, and the page's paint figures, for Admit's event page and home
// page and for a bare Vite + React page built in the same run; then, with the machine kept busy,
// the event page and the bare page again (when the page answers a tap is what a busy phone delays).

const runs = numberOption('BENCH_RUNS', 3);
const cpuRate = numberOption('BENCH_CPU_RATE', 4);
/** 0 leaves out the pass on a busy machine. */
const busyPass = numberOption('BENCH_BUSY', 1) === 1;
/** Slow 4G, as Lighthouse's mobile preset has it. */
const network = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

interface Sample extends Interactivity {
  /** Script and style bytes on the wire (compressed) that the page asked for before its first lazy chunk. */
  initialJsBytes: number;
  /** The same scripts as gzip sends them: the goal's measure (the browser is sent brotli, smaller). */
  initialJsGzipBytes: number;
  initialCssBytes: number;
  /** All script and style bytes on the wire until the page was settled. */
  totalJsBytes: number;
  totalCssBytes: number;
  /** When the page's first byte came (Navigation Timing's responseStart). */
  ttfbMs: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  stripeRequested: boolean;
}

/** Collects the paint figures in the page from its first instant (an init script). */
const probe = () => {
  const figures = { lcp: 0, cls: 0 };
  (window as unknown as { __figures: typeof figures }).__figures = figures;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) figures.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
      if (!entry.hadRecentInput) figures.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
};

async function measure(browser: Browser, url: string, ready: string): Promise<Sample> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(probe);
    await page.addInitScript(longTaskProbe);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', network);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });

    const requests = new Map<string, { url: string; type: string; started: number }>();
    const finished: { url: string; type: string; started: number; bytes: number }[] = [];
    cdp.on('Network.requestWillBeSent', (event) =>
      requests.set(event.requestId, { url: event.request.url, type: event.type ?? '', started: event.timestamp }),
    );
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request) finished.push({ ...request, bytes: event.encodedDataLength });
    });

    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.getByRole('heading', { name: ready }).first().waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => undefined);
    // LCP is final once the page is settled; a short wait lets the observers report.
    await page.waitForTimeout(500);
    const figures = await page.evaluate(() => {
      const { lcp, cls } = (window as unknown as { __figures: { lcp: number; cls: number } }).__figures;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const ttfb = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? 0;
      return { lcp, cls, fcp, ttfb };
    });
    const interactive = await interactivity(page, cdp, figures.fcp);

    const initial = await initialFiles(page.url(), finished);
    const sum = (list: typeof finished, kind: RegExp) =>
      list.filter((entry) => kind.test(new URL(entry.url).pathname)).reduce((total, entry) => total + entry.bytes, 0);
    const initialJs = initial.filter((entry) => /\.js$/.test(new URL(entry.url).pathname));
    return {
      initialJsBytes: sum(initial, /\.js$/),
      initialJsGzipBytes: (await Promise.all(initialJs.map((entry) => gzipBytes(entry.url)))).reduce((a, b) => a + b, 0),
      initialCssBytes: sum(initial, /\.css$/),
      totalJsBytes: sum(finished, /\.js$/),
      totalCssBytes: sum(finished, /\.css$/),
      ttfbMs: round(figures.ttfb, 0),
      fcpMs: round(figures.fcp, 0),
      lcpMs: round(figures.lcp, 0),
      cls: round(figures.cls, 4),
      ...interactive,
      stripeRequested:
        finished.some((entry) => /stripe\.com/.test(entry.url)) || [...requests.values()].some((r) => /stripe\.com/.test(r.url)),
    };
  } finally {
    await context.close();
  }
}

/**
 * The files the page names itself (its script, modulepreloads and style sheets; an event's page
 * names its ticket picker's too): what the browser loads before any lazy chunk. Lazy chunks are
 * everything fetched besides these.
 */
async function initialFiles(pageUrl: string, finished: { url: string; type: string; started: number; bytes: number }[]) {
  const html = await (await fetch(pageUrl)).text();
  const named = new Set(
    [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((match) => new URL(match[1]!, pageUrl).pathname),
  );
  return finished.filter((entry) => named.has(new URL(entry.url).pathname));
}

/** A file's bytes as the server sends it to a client that accepts gzip only (a small file comes as it is). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function summarize(samples: Sample[]) {
  const of = (key: keyof Omit<Sample, 'stripeRequested'>) => median(samples.map((sample) => sample[key]));
  return {
    initialJsKB: round(of('initialJsBytes') / 1024, 1),
    initialJsGzipKB: round(of('initialJsGzipBytes') / 1024, 1),
    initialCssKB: round(of('initialCssBytes') / 1024, 1),
    totalJsKB: round(of('totalJsBytes') / 1024, 1),
    totalCssKB: round(of('totalCssBytes') / 1024, 1),
    ttfbMs: of('ttfbMs'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    cls: of('cls'),
    ttiMs: of('ttiMs'),
    tbtMs: of('tbtMs'),
    longTasks: of('longTasks'),
    scriptMs: of('scriptMs'),
    stripeRequested: samples.some((sample) => sample.stripeRequested),
  };
}

/**
 * How long the server takes to answer a page (median of 20, one at a time, brotli), each at an
 * address of its own so that none is the one-second copy of another (first-view.ts): what a first
 * view costs it, beside the app's page without one.
 */
async function serverMs(url: string) {
  const times: number[] = [];
  for (let index = 0; index < 20; index += 1) {
    const started = performance.now();
    const response = await fetch(`${url}?bench=${index}`, { headers: { 'accept-encoding': 'br', 'accept-language': 'en' } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return round(median(times), 1);
}

/** A person signed up and verified through the auth API and the dev outbox, as a browser would. */
async function signUpOrganizer(baseUrl: string, origin: string): Promise<Caller> {
  const email = `bench-web-${Date.now()}@bench.example.com`;
  const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ name: 'Bench Organizer', email, password: 'correct horse battery staple' }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  let link: string | undefined;
  for (let attempt = 0; attempt < 50 && !link; attempt += 1) {
    const { messages } = (await (await fetch(`${baseUrl}/dev/outbox.json`)).json()) as {
      messages: { to: string; text: string }[];
    };
    link = messages.find((message) => message.to === email)?.text.match(/https?:\/\/\S+/)?.[0];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error('no verification email in the outbox');
  const verify = new URL(link);
  const verified = await fetch(`${baseUrl}${verify.pathname}${verify.search}`, { redirect: 'manual', headers: { origin } });
  const cookie = verified.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  if (!cookie.includes('session_token')) throw new Error(`verification gave no session (${verified.status})`);
  return { cookie };
}

async function main() {
  const cleanup = cleanupOnExit();
  const loadAverageAtStart = loadAverage();
  const dist = path.join(repositoryRoot, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('Build the web app first: npm run build');

  const hello = await buildHelloWorld();
  cleanup.add('hello world', hello.remove);
  const helloServer = await serveStatic(hello.dist);
  cleanup.add('hello world server', () => new Promise((resolve) => helloServer.server.close(resolve)));

  const admit = await startServer({ env: {} });
  cleanup.add('Admit', () => admit.stop());
  const organizer = await signUpOrganizer(admit.url, admit.publicUrl);
  const { organizationId } = await call<{ organizationId: string }>(admit.url, organizer, 'orgs.create', { name: 'Bench Hall' });
  const { eventId, slug } = await call<{ eventId: string; slug: string }>(admit.url, organizer, 'events.create', {
    organizationId,
    title: 'Basement Blues',
    venue: 'Bench Hall',
    timeZone: 'Europe/Berlin',
    startsAtLocal: '2030-01-10T19:00',
    endsAtLocal: '2030-01-10T23:00',
    capacity: 100,
  });
  await call(admit.url, organizer, 'events.addTicketType', {
    eventId,
    name: 'Standing',
    capacity: 100,
    maxPerOrder: 4,
    price: 1500,
  });
  await call(admit.url, organizer, 'events.publish', { eventId });

  const serverTimes = {
    eventPage: await serverMs(`${admit.url}/e/${slug}`),
    homePage: await serverMs(`${admit.url}/`),
    appPageWithoutFirstView: await serverMs(`${admit.url}/accessibility`),
  };
  console.log('server time per page (ms, median):', serverTimes);

  const browser = await launchChromium();
  cleanup.add('Chromium', () => browser.close());
  const pages = [
    { name: 'event page', url: `${admit.url}/e/${slug}`, ready: 'Basement Blues' },
    { name: 'home page', url: `${admit.url}/`, ready: "Tickets for what's on" },
    { name: 'hello world', url: `${helloServer.url}/`, ready: 'Hello, world' },
  ];
  const samples: Record<string, Sample[]> = {};
  const loadInTurns = async (pass: typeof pages, suffix: string) => {
    // In turns, so that whatever else the machine does falls on every page alike.
    for (let run = 0; run < runs; run += 1) {
      for (const page of pass) {
        const sample = await measure(browser, page.url, page.ready);
        (samples[page.name + suffix] ??= []).push(sample);
        console.log(`${page.name}${suffix} #${run + 1}: ${JSON.stringify(sample)}`);
      }
    }
  };
  await loadInTurns(pages, '');
  if (busyPass) {
    const burners = startBurners();
    cleanup.add('CPU burners', () => burners.stop());
    await loadInTurns(
      pages.filter((page) => page.name !== 'home page'),
      ' (busy)',
    );
    burners.stop();
  }
  const figures = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summarize(list)]));
  const goalsBeside = (name: string, hello: ReturnType<typeof summarize>) => {
    const figure = figures[name]!;
    return {
      initialJsUnder150KBGzip: figure.initialJsGzipKB <= 150,
      lcpUnder2s: figure.lcpMs <= 2000,
      lcpWithin1_2xHelloWorld: figure.lcpMs <= 1.2 * hello.lcpMs,
      clsUnder0_05: figure.cls <= 0.05,
      noStripe: !figure.stripeRequested,
      ttiTimesHelloWorld: round(figure.ttiMs / hello.ttiMs, 2),
      ttiWithin1_1xHelloWorld: figure.ttiMs <= 1.1 * hello.ttiMs,
      tbtUnder100ms: figure.tbtMs <= 100,
    };
  };
  const goals: Record<string, ReturnType<typeof goalsBeside>> = {
    'event page': goalsBeside('event page', figures['hello world']!),
    'home page': goalsBeside('home page', figures['hello world']!),
  };
  if (busyPass) goals['event page (busy)'] = goalsBeside('event page (busy)', figures['hello world (busy)']!);
  console.table(figures);
  console.log(JSON.stringify(goals, null, 2));
  writeResult('web', {
    label: textOption('BENCH_LABEL'),
    machine: await machine({ loadAverageAtStart, note: 'Chromium, Admit (PGlite) and this script on the same cores' }),
    inputs: {
      runs,
      cpuRate,
      busyPass,
      quietMs,
      network,
      viewport: '390×844, scale 3, touch',
      cache: 'disabled, service worker blocked',
    },
    figures: { ...figures, goals, serverMs: serverTimes },
    timings: samples,
  });
  await cleanup.run();
}

await main();
