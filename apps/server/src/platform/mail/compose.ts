import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { toPlainText } from '@react-email/render';
import {
  acceptLanguageTags,
  directionOf,
  isLocale,
  isolateArguments,
  localeCookie,
  locales,
  pickLocale,
  type Locale,
} from '@admit/shared/locales';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ActionEmail } from './action-email';
import ar from './locales/ar.json';
import de from './locales/de.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import ja from './locales/ja.json';
import type { Email } from './mailer';
import { mailMessages } from './messages';
import { shorten, shownMax } from './shown-text';
import { cookieValue } from '../http/cookies';

const written: Record<Locale, Record<string, string>> = { en: {}, de, fr, es, ja, ar };
/** Right-to-left catalogs set each argument in its own direction (an address in an Arabic sentence). */
const catalogs = Object.fromEntries(
  locales.map((locale) => [locale, directionOf(locale) === 'rtl' ? isolateArguments(written[locale]) : written[locale]]),
) as Record<Locale, Record<string, string>>;
const cache = createIntlCache();
const intls = new Map<Locale, IntlShape>(
  locales.map((locale) => [
    locale,
    createIntl(
      {
        locale,
        messages: catalogs[locale],
        defaultLocale: 'en',
        // Expiry times in emails are given in UTC (the recipient's zone is not known).
        timeZone: 'UTC',
        // A broken translation falls back to the English text; it never stops an email.
        onError: () => {},
      },
      cache,
    ),
  ]),
);

/** The formatter for emails and text messages in one language. */
export const mailIntl = (locale: Locale): IntlShape => intls.get(locale)!;

/** The language to write to the person behind a request in: the app's language cookie, else Accept-Language. */
export function localeOf(cookieHeader: string | undefined, acceptLanguage: string | undefined): Locale {
  const cookie = cookieValue(cookieHeader, localeCookie);
  if (isLocale(cookie)) return cookie;
  return pickLocale(acceptLanguageTags(acceptLanguage));
}

/** localeOf for a Fetch request's headers (Better Auth's callbacks). */
export const localeOfRequest = (headers: Headers | undefined): Locale =>
  localeOf(headers?.get('cookie') ?? undefined, headers?.get('accept-language') ?? undefined);

export interface ActionEmailContent {
  to: string;
  locale: Locale;
  /** The person's name, or null when it is not known (sign-in link, invitation). */
  name: string | null;
  subject: string;
  paragraphs: string[];
  action: { label: string; url: string };
  note: string;
}

/** An "open this link" email as HTML (React Email) with its plain-text part, in the person's language. */
export async function composeActionEmail(content: ActionEmailContent): Promise<Email> {
  const intl = mailIntl(content.locale);
  const element = createElement(ActionEmail, {
    lang: content.locale,
    preview: content.paragraphs[0] ?? content.subject,
    greeting: intl.formatMessage(mailMessages.greeting, {
      name: content.name === null ? 'none' : shorten(content.name, shownMax.personName),
    }),
    paragraphs: content.paragraphs,
    action: content.action,
    buttonFallback: intl.formatMessage(mailMessages.buttonFallback),
    note: content.note,
    footer: intl.formatMessage(mailMessages.footer, { host: new URL(content.action.url).host }),
  });
  return { to: content.to, subject: content.subject, ...renderEmailParts(element) };
}

/** The doctype React Email's own render puts first: the one email clients expect. */
const xhtmlDoctype =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * An email's HTML and its plain-text part, rendered once: the text is read from the HTML, as React
 * Email's plain-text render does. Rendered synchronously: React Email's render() streams through
 * Suspense for components that load data, which ours never do, and costs three times as much
 * (3 ms instead of 1 per confirmation).
 */
export function renderEmailParts(element: ReactElement): { html: string; text: string } {
  const html = `${xhtmlDoctype}${renderToStaticMarkup(element)}`;
  return { html, text: toPlainText(html) };
}
