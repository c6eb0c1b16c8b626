import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium, started the way this machine's closed network needs (no background traffic). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export async function newPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US', ...options });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
  return page;
}

/**
 * Calls a function as the person signed in on `page` (their session cookie), for a journey's set-up
 * steps that another journey already walks through the UI. Returns the result; throws on an error.
 */
export function callAs(page: Page) {
  return async <T = Record<string, string>>(name: string, data: unknown): Promise<T> => {
    const body = await page.evaluate(
      async ([name, data]) => {
        const response = await fetch(`/fn/${name as string}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data }),
        });
        return response.json();
      },
      [name, data],
    );
    if (body.error) throw new Error(`set-up call ${name} failed: ${JSON.stringify(body.error)}`);
    return body.result as T;
  };
}

/** With SCREENSHOT_DIR set, keeps the page at phone and desktop widths, for a person to look at. */
export async function screenshots(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // The web fonts of the glyphs on screen (Japanese, Arabic) arrive after the text.
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}
