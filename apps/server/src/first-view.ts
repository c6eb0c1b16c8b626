import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstViewDataId, type FirstView, type RenderFirstView } from '@admit/shared/first-view';
import { directionOf } from '@admit/shared/locales';
import { cookieValue } from './platform/http/cookies';
import { jsonForScript } from './platform/http/html';
import type { LiveContext, LiveQuery } from './platform/live/live-query';
import { readAsVisitor } from './platform/live/live-query';

// The first view of a public page (the event list, an event's page), drawn by the web app's own
// components in its server build (apps/web/src/entry-server.tsx) and put in the page the server
// sends, with its data, so that the browser shows the event before the app's scripts have arrived
// and then takes the page over as is (decision 0049).

/** The cookie in which the browser tells the server its time zone (apps/web/src/lib/dates.ts). */
const timeZoneCookie = 'admit-tz';

/** The viewer's zone from their cookie, when it is one this machine knows; else null. */
export function timeZoneOf(cookieHeader: string | undefined): string | null {
  const value = cookieValue(cookieHeader, timeZoneCookie);
  if (!value || value.length > 64) return null;
  try {
    const zone = decodeURIComponent(value);
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

const freshForMs = 1_000;
const maxKept = 500;

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/** The name of a browser build: its manifest's hash (scripts/build-web.mjs writes the same next to the server build). */
export function buildIdOf(manifestText: string): string {
  return createHash('sha256').update(manifestText).digest('hex').slice(0, 16);
}

/**
 * The web app's server build, for the browser build whose manifest the server read as it started;
 * null when the server build is not there. A server build made for another browser build (one built
 * into the same folder since) is refused: it would draw components and name chunks other than those
 * of the page it goes in.
 */
export async function loadFirstViews(distDir: string, manifestText: string | null) {
  const serverDir = path.join(distDir, '..', 'dist-server');
  const entry = path.join(serverDir, 'entry-server.js');
  if (!existsSync(entry) || manifestText === null) return null;
  const madeFor = await readFile(path.join(serverDir, 'client-build.json'), 'utf8').then(
    (text) => (JSON.parse(text) as { id?: string }).id,
    () => undefined,
  );
  if (madeFor !== buildIdOf(manifestText))
    throw new Error('The server build of the web app was made for another browser build than the one this process serves');
  const { renderFirstView } = (await import(pathToFileURL(entry).href)) as { renderFirstView: RenderFirstView };
  const manifest = JSON.parse(manifestText) as Record<string, ManifestChunk>;

  /** The style sheets and scripts of lazy parts (by source path), with the chunks they import. */
  function assetsOf(parts: string[]) {
    const styles = new Set<string>();
    const scripts = new Set<string>();
    const seen = new Set<string>();
    const add = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      // A chunk of styles only (app/more-styles.ts) is a style sheet itself.
      if (chunk.file.endsWith('.css')) styles.add(chunk.file);
      else scripts.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) add(imported);
    };
    parts.forEach(add);
    // What the entry loads is in the page already.
    const entry = Object.values(manifest).find((chunk) => (chunk as { isEntry?: boolean }).isEntry);
    const inPage = new Set<string>();
    const skip = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || inPage.has(chunk.file)) return;
      inPage.add(chunk.file);
      chunk.imports?.forEach(skip);
    };
    if (entry) skip(Object.keys(manifest).find((key) => manifest[key] === entry)!);
    for (const file of inPage) scripts.delete(file);
    for (const file of entry?.css ?? []) styles.delete(file);
    return { styles: [...styles], scripts: [...scripts] };
  }

  /**
   * Views drawn in the last second, by address, language and zone: a rush of visitors to one event
   * costs a drawing a second, not one each. A view a second old is fine: the page goes live at once.
   */
  const recent = new Map<string, { at: number; view: Promise<FirstView | null> }>();

  return {
    /** The first view of `url` for a visitor who is not signed in, or null when the page has none. */
    render(url: string, request: Pick<FirstView['data'], 'locale' | 'formatLocale' | 'timeZone'>, live: LiveLookup) {
      const key = `${request.formatLocale}\n${request.timeZone ?? ''}\n${url}`;
      const now = Date.now();
      const kept = recent.get(key);
      if (kept && now - kept.at < freshForMs) return kept.view;
      const view = renderFirstView({
        url,
        locale: request.locale,
        formatLocale: request.formatLocale,
        timeZone: request.timeZone,
        readLive: (name, params) => readAsVisitor(live.queries, name, params, live.ctx),
      });
      recent.delete(key);
      recent.set(key, { at: now, view });
      // The oldest go first; the addresses (any query string) are the visitors' to choose.
      for (const [oldKey, old] of recent) {
        if (recent.size <= maxKept && now - old.at < freshForMs) break;
        recent.delete(oldKey);
      }
      view.catch(() => recent.get(key)?.view === view && recent.delete(key));
      return view;
    },
    /** The app's page with the first view in its root element, its data beside it and its parts' files in the head. */
    page(indexHtml: string, view: FirstView): string {
      const { styles, scripts } = assetsOf(view.parts);
      const head = scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`).join('\n    ');
      // The page's style sheets first: the view can show once they are in, and the scripts, more than
      // twenty files the browser asks for at once, would otherwise go ahead of them.
      const sheets = indexHtml.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
      const withSheetsFirst = sheets
        .reduce((html, sheet) => html.replace(sheet, ''), indexHtml)
        .replace(
          /<script type="module"/,
          (script) =>
            `${[...sheets, ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}" />`)].join('\n    ')}\n    ${script}`,
        );
      return withSheetsFirst
        .replace(/<html lang="[^"]*"/, () => `<html lang="${view.data.locale}" dir="${directionOf(view.data.locale)}"`)
        .replace('</head>', () => `  ${head}\n  </head>`)
        .replace(
          '<div id="root"></div>',
          () =>
            `<div id="root">${view.html}</div>\n    <script type="application/json" id="${firstViewDataId}">${jsonForScript(view.data)}</script>`,
        );
    },
  };
}

/** The live queries a first view may read, and the visitor's context to read them in. */
interface LiveLookup {
  queries: ReadonlyMap<string, LiveQuery>;
  ctx: LiveContext;
}
