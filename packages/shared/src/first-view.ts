import type { LiveRow } from './live';
import type { Locale } from './locales';

// The first view of a public page (the event list, an event's page), drawn on the server by the web
// app's own components and taken over as is by the browser (decision 0049). The server reads the
// live queries the page asks for; the page's data goes along in the HTML, so that the browser draws
// the very same page before any socket opens.

/** The id of the `<script type="application/json">` that carries a first view's data. */
export const firstViewDataId = 'admit-first-view';

/** The rows of one live query the view was drawn with. */
export interface FirstViewLive {
  query: string;
  params: unknown;
  rows: LiveRow[];
}

/** What the browser needs to draw the same view: the language, the viewer's zone, the data. */
export interface FirstViewData {
  locale: Locale;
  /** The tag its dates and times are written in: the reader's region of the language ("en-GB"). */
  formatLocale: string;
  /** The viewer's zone the times were drawn in (the browser said it in a cookie), or null. */
  timeZone: string | null;
  live: FirstViewLive[];
}

export interface FirstViewRequest {
  /** The path and query asked for. */
  url: string;
  locale: Locale;
  formatLocale: string;
  timeZone: string | null;
  /** A live query's rows as a visitor who is not signed in sees them; null when such a visitor may not. */
  readLive(query: string, params: unknown): Promise<LiveRow[] | null>;
}

export interface FirstView {
  /** The markup of the app's root element. */
  html: string;
  data: FirstViewData;
  /** The lazy parts the view drew, by source path: their styles and scripts go with the page. */
  parts: string[];
}

/** The web app's server entry (apps/web/src/entry-server.tsx): null when the page has no first view to draw. */
export type RenderFirstView = (request: FirstViewRequest) => Promise<FirstView | null>;
