import { useEffect } from 'react';

const japanese = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/;
const arabic = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;

/** Loads a script's font, then puts it first in the page's fonts (`data-fonts` on <html>, app.css). */
async function loadScriptFont(script: 'ja' | 'ar') {
  // One import() each: the build gives each call its own style sheet to load.
  if (script === 'ja') await import('./japanese');
  else await import('./arabic');
  const root = document.documentElement;
  const fonts = new Set((root.dataset.fonts ?? '').split(' ').filter(Boolean));
  fonts.add(script);
  root.dataset.fonts = [...fonts].join(' ');
}

/**
 * Loads the Japanese or Arabic web font when text on the screen needs it in another language's
 * interface (an event written in Japanese on an English page): a machine without such a font would
 * show empty boxes. Chromium only reaches a web font reliably when it comes first in the font list,
 * and looks again only when the list changes: so the font is loaded first, then put at the front of
 * the list, for the rest of the visit (its Latin letters then set the page's Latin text too).
 */
export function useFontsFor(...texts: (string | null | undefined)[]) {
  const all = texts.join(' ');
  const needsJapanese = japanese.test(all);
  const needsArabic = arabic.test(all);
  useEffect(() => {
    if (needsJapanese) void loadScriptFont('ja');
    if (needsArabic) void loadScriptFont('ar');
  }, [needsJapanese, needsArabic]);
}
