import { isLocale, type Locale } from '@admit/shared/locales';
import { useSearch } from '@tanstack/react-router';
import { useLocale } from './i18n';

/** The search parameter that picks the language of an event's words on its page (`/e/jazz-night?lang=fr`). */
export const eventLanguageParam = 'lang';

/**
 * The language a visitor asked to read events in: the one chosen on the event's page (kept in the
 * URL, so a link shares it), else the language of the interface. `localizeEvent` falls back to the
 * event's main language when the event has no translation into it (decision 0040).
 */
export function useEventLanguage(): Locale {
  const { locale } = useLocale();
  const chosen = useSearch({ strict: false, select: (search: Record<string, unknown>) => search[eventLanguageParam] });
  return isLocale(chosen) ? chosen : locale;
}
