import { eventLocales, type EventContent } from '@admit/shared/localize-event';
import { localeNames, type Locale } from '@admit/shared/locales';
import { Group } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useIntl } from 'react-intl';
import { AnchorLink } from '../../lib/links';

/**
 * The languages an event can be read in, each as a link to its page in that language (`?lang=`),
 * named in the language itself. It changes the event's words only, not the interface. Shown only
 * for an event with more than one language.
 */
export function EventLanguageSwitch({ event, slug, shown }: { event: EventContent; slug: string; shown: Locale }) {
  const intl = useIntl();
  const languages = eventLocales(event);
  if (languages.length < 2) return null;
  return (
    <Group
      gap="sm"
      role="group"
      aria-label={intl.formatMessage({ id: 'event.languages', defaultMessage: 'Languages of this event' })}
    >
      <IconLanguage size={16} aria-hidden color="var(--mantine-color-dimmed)" />
      {languages.map((locale) => (
        <AnchorLink
          key={locale}
          to="/e/$slug"
          params={{ slug }}
          search={(before) => ({ ...before, lang: locale })}
          replace
          size="sm"
          lang={locale}
          hrefLang={locale}
          aria-current={locale === shown ? 'page' : undefined}
          fw={locale === shown ? 700 : undefined}
          underline={locale === shown ? 'never' : 'hover'}
        >
          {localeNames[locale]}
        </AnchorLink>
      ))}
    </Group>
  );
}
