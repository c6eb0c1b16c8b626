import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { accessibilityViolations } from './accessibility';
import { freePort, startAdmit, type AdmitServer } from './admit-server';
import { launchChromium, newPage } from './browser';

type ServerEnv = Record<string, string>;

export interface JourneyOptions {
  /**
   * The server's environment beyond the defaults. A function is called once, before the server first
   * starts, with the port it will listen on: for a stand-in that must know Admit's address.
   */
  env?: ServerEnv | ((server: { port: number }) => ServerEnv | Promise<ServerEnv>);
  /** Context options of every page (its time zone, say); a page's own options win over them. */
  context?: BrowserContextOptions;
  /**
   * Whether axe-core checks the screen each step ends on (true unless said). A journey whose screens
   * still have known violations says false, with what they are: docs/product.md lists them.
   */
  accessibilityAudit?: boolean;
  /** Runs on every new context before its page goes anywhere, e.g. to route a host this machine cannot reach. */
  prepareContext?: (context: BrowserContext) => Promise<unknown>;
}

export interface PageOptions extends BrowserContextOptions {
  /** Chromium flags (a fake camera, say): the page opens in a browser of its own, launched with them. */
  chromiumArgs?: string[];
}

export interface Journey {
  /** The server's address, the base URL of every page. */
  readonly url: string;
  readonly dataDir: string;
  /** Another person or device: a page in a context of its own (cookies, storage, network). */
  newPage(options?: PageOptions): Promise<Page>;
  /** Stops the server as its operator would (SIGTERM, or Ctrl-C's SIGINT); resolves to its exit code. */
  stopServer(signal?: 'SIGTERM' | 'SIGINT'): Promise<number | null>;
  /** Starts the server again on the same port and data dir: pages reconnect to it as after a restart. */
  startServer(): Promise<void>;
}

/**
 * Sets up one journey through hooks of the calling `describe`: the server started from the built app on
 * a free port with a fresh data dir (a copy of the migrated, empty template), Chromium launched for
 * the first page, and afterwards everything closed and the data dir deleted.
 */
export function useJourney(options: JourneyOptions = {}): Journey {
  let dataDir = '';
  let port = 0;
  let env: ServerEnv = {};
  let server: AdmitServer | undefined;
  const browsers: Browser[] = [];
  let sharedBrowser: Promise<Browser> | undefined;
  const pages: Page[] = [];

  const running = () => {
    if (!server) throw new Error('The journey has not started: use it in tests and hooks, not while they are collected');
    return server;
  };
  const startServer = async () => {
    server = await startAdmit({ ...env, PORT: String(port), DATA_DIR: dataDir });
  };
  const launch = async (args?: string[]) => {
    const browser = await launchChromium(args);
    browsers.push(browser);
    return browser;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'admit-e2e-'));
    // A migrated database with nothing in it, as a first start leaves it (support/global-setup.ts).
    cpSync(inject('dataDirTemplate'), dataDir, { recursive: true });
    port = await freePort();
    env = typeof options.env === 'function' ? await options.env({ port }) : (options.env ?? {});
    await startServer();
  });

  // Every screen a journey's step ends on, on every page still open, passes axe-core's WCAG 2.2 AA
  // rules without a serious or critical violation (support/accessibility.ts).
  afterEach(async (context) => {
    if (options.accessibilityAudit === false || context.task.result?.state === 'fail') return;
    for (const page of pages) {
      if (page.isClosed() || !page.url().startsWith(server?.url ?? '-')) continue;
      const violations = await accessibilityViolations(page).catch(() => [] as string[]);
      expect(violations, `axe-core on ${new URL(page.url()).pathname} after “${context.task.name}”`).toEqual([]);
    }
  });

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get url() {
      return running().url;
    },
    get dataDir() {
      return dataDir;
    },
    async newPage({ chromiumArgs, ...contextOptions } = {}) {
      const browser = chromiumArgs ? await launch(chromiumArgs) : await (sharedBrowser ??= launch());
      const page = await newPage(browser, running().url, { ...options.context, ...contextOptions });
      await options.prepareContext?.(page.context());
      pages.push(page);
      return page;
    },
    async stopServer(signal = 'SIGTERM') {
      const { process: child } = running();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill(signal);
      return exited;
    },
    startServer,
  };
}
