import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { directionOf, isolateArguments, isLocale } from '@admit/shared/locales';
import { createIntl } from '@formatjs/intl';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The web app's words in one language, from its catalog: a journey in Arabic or Japanese finds
 * buttons and headings by what that language's catalog says, so a screen still in English fails it.
 */
export function catalogText(locale: string) {
  const written = JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), 'utf8')) as Record<
    string,
    string
  >;
  // As the web app shows them: a right-to-left catalog's arguments in their own direction.
  const messages = isLocale(locale) && directionOf(locale) === 'rtl' ? isolateArguments(written) : written;
  const intl = createIntl({
    locale,
    messages,
    onError: (error) => {
      throw error;
    },
  });
  return (id: string, values?: Record<string, string | number>) => {
    if (!(id in messages)) throw new Error(`${locale}.json has no ${id}`);
    return intl.formatMessage({ id }, values) as string;
  };
}
