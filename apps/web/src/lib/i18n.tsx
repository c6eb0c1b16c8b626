import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlProvider, type IntlConfig } from 'react-intl';
import { isEmbedded } from './embed-frame';

import {
  directionOf,
  isLocale,
  localeCookie,
  localeNames,
  locales,
  pickLocale,
  regionalTag,
  type Locale,
} from '@admit/shared/locales';

export { localeNames, locales, type Locale };

type Messages = IntlConfig['messages'];
/**
 * Each catalog is its own chunk, loaded when chosen. Japanese and Arabic also bring their web font
 * (a machine without one would show empty boxes); the font files themselves are split by Unicode
 * range, and the browser fetches only the ranges a page shows.
 */
// English is each message's own default text (en.json is extracted from it), so English needs no
// catalog and the first paint carries none (decision 0042).
const english: Messages = {};
const loaders: Record<Locale, () => Promise<Messages>> = {
  en: async () => english,
  de: async () => (await import('../locales/de.json')).default,
  fr: async () => (await import('../locales/fr.json')).default,
  es: async () => (await import('../locales/es.json')).default,
  ja: async () => {
    const [messages] = await Promise.all([import('../locales/ja.json'), import('./fonts/japanese')]);
    return messages.default;
  },
  ar: async () => {
    // Its arguments isolated from the sentence's direction when it was compiled (compiled-messages.ts).
    const [messages] = await Promise.all([import('../locales/ar.json'), import('./fonts/arabic')]);
    return messages.default;
  },
};

/** A language with its messages, loaded. */
export interface LoadedCatalog {
  locale: Locale;
  /** The tag dates, times and numbers are written in: the reader's region of the language ("en-GB"). */
  formatLocale: string;
  messages: Messages;
}

/** The reader's region of `locale`, from the browser's languages (the server passes the request's). */
export const browserFormatLocale = (locale: Locale) =>
  regionalTag(locale, typeof navigator === 'undefined' ? [] : navigator.languages);

/** The messages of `locale` (English: none, its default texts), written in `formatLocale`'s way. */
export async function loadCatalog(locale: Locale, formatLocale = browserFormatLocale(locale)): Promise<LoadedCatalog> {
  return { locale, formatLocale, messages: await loaders[locale]() };
}

const storageKey = localeCookie;

/** The language this browser shows: the one chosen here before, else the first of the system's languages we have. */
export function initialLocale(): Locale {
  // The embedded checkout speaks its host page's language, which embed.js passes (decision 0061).
  const hostLanguage = isEmbedded() ? new URLSearchParams(location.search).get('lang') : null;
  if (hostLanguage) return pickLocale([hostLanguage]);
  let saved: string | null = null;
  try {
    saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(storageKey);
  } catch {
    // A browser that keeps its storage from other sites' frames (the embedded checkout) throws here.
  }
  if (isLocale(saved)) return saved;
  return pickLocale(typeof navigator === 'undefined' ? [] : navigator.languages);
}

const logged = new Set<string>();
/**
 * A broken or missing message never breaks a screen: react-intl shows the default message and we
 * log each distinct problem once.
 */
export const onIntlError: NonNullable<IntlConfig['onError']> = (error) => {
  const key = `${error.code}:${error.message}`;
  if (logged.has(key)) return;
  logged.add(key);
  console.warn(`[i18n] ${error.message}`);
};

/**
 * In development the language switch also offers a pseudo-language (lib/pseudo-locale.ts): English,
 * accented and 40% longer, to find untranslated and clipped text. Kept apart from the real choice.
 */
const pseudoKey = 'admit.pseudo';
export const pseudoAvailable = import.meta.env.DEV;
/** Whether this browser shows the pseudo-language (development only). */
export const pseudoChosen = () => {
  try {
    return pseudoAvailable && typeof localStorage !== 'undefined' && localStorage.getItem(pseudoKey) === '1';
  } catch {
    return false;
  }
};

interface LocaleChoice {
  locale: Locale;
  setLocale(locale: Locale): void;
  pseudo: boolean;
  setPseudo(pseudo: boolean): void;
}
const LocaleContext = createContext<LocaleChoice>({ locale: 'en', setLocale: () => {}, pseudo: false, setPseudo: () => {} });

/**
 * The interface's language. `initial`: the language the page's first view was drawn in (on the
 * server, or by the server before the browser took over) with its messages already loaded.
 */
export function LocaleProvider({ children, initial }: { children: ReactNode; initial?: LoadedCatalog }) {
  const [locale, setLocaleState] = useState<Locale>(() => initial?.locale ?? initialLocale());
  const [pseudo, setPseudoState] = useState(pseudoChosen);
  const [messages, setMessages] = useState<LoadedCatalog>(
    initial ?? { locale: 'en', formatLocale: browserFormatLocale('en'), messages: english },
  );

  useEffect(() => {
    let current = true;
    const load = pseudo
      ? async () => {
          const [{ pseudoLocalize }, en] = await Promise.all([import('./pseudo-locale'), import('../locales/en.json')]);
          // Typed as its JSON, and parsed by the build (compiled-messages.ts).
          return pseudoLocalize(en.default as unknown as Record<string, MessageFormatElement[]>);
        }
      : loaders[locale];
    void load().then((loaded) => {
      if (current)
        setMessages((shown) => ({
          locale,
          // The view taken over keeps the region it was drawn in (the server's reading of the request).
          formatLocale: shown.locale === locale ? shown.formatLocale : browserFormatLocale(locale),
          messages: loaded,
        }));
    });
    document.documentElement.lang = locale;
    // Mantine's DirectionProvider follows the attribute: the whole app mirrors for Arabic.
    document.documentElement.dir = directionOf(locale);
    // The server writes emails and text messages in the language the person sees.
    document.cookie = `${localeCookie}=${locale}; path=/; max-age=31536000; samesite=lax`;
    return () => {
      current = false;
    };
  }, [locale, pseudo]);

  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(storageKey, next);
    setLocaleState(next);
  }, []);
  const setPseudo = useCallback((next: boolean) => {
    if (next) localStorage.setItem(pseudoKey, '1');
    else localStorage.removeItem(pseudoKey);
    setPseudoState(next);
  }, []);
  const value = useMemo(() => ({ locale, setLocale, pseudo, setPseudo }), [locale, setLocale, pseudo, setPseudo]);

  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider
        locale={messages.formatLocale}
        messages={messages.messages}
        // English's messages are their default texts: in an English region they are no missing translation.
        defaultLocale={messages.locale === 'en' ? messages.formatLocale : 'en'}
        onError={onIntlError}
      >
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

export const useLocale = () => useContext(LocaleContext);
