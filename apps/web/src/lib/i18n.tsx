import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider, type IntlConfig } from 'react-intl';
import en from '../locales/en.json';

import { isLocale, localeCookie, locales, pickLocale, type Locale } from '@admit/shared/locales';

export { locales, type Locale };
export const localeNames: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

type Messages = Record<string, string>;
const loaders: Record<Locale, () => Promise<Messages>> = {
  en: async () => en,
  de: async () => (await import('../locales/de.json')).default,
};

const storageKey = localeCookie;

function initialLocale(): Locale {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(storageKey);
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

const LocaleContext = createContext<{ locale: Locale; setLocale(locale: Locale): void }>({ locale: 'en', setLocale: () => {} });

export function LocaleProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const [messages, setMessages] = useState<{ locale: Locale; messages: Messages }>({ locale: 'en', messages: en });

  useEffect(() => {
    let current = true;
    void loaders[locale]().then((loaded) => {
      if (current) setMessages({ locale, messages: loaded });
    });
    document.documentElement.lang = locale;
    // The server writes emails and text messages in the language the person sees.
    document.cookie = `${localeCookie}=${locale}; path=/; max-age=31536000; samesite=lax`;
    return () => {
      current = false;
    };
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(storageKey, next);
    setLocaleState(next);
  }, []);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);

  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={messages.locale} messages={messages.messages} defaultLocale="en" onError={onIntlError}>
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

export const useLocale = () => useContext(LocaleContext);
