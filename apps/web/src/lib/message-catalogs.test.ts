/// <reference types="node" />
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';
import { catalogProblems } from '@admit/shared/catalog-check';
import { locales } from '@admit/shared/locales';
import { createElement, Fragment } from 'react';
import { renderToString } from 'react-dom/server';
import { FormattedMessage, IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../locales/en.json';
import { onIntlError } from './i18n';

// The message catalogs: en.json is extracted from the code (`npm run i18n:extract`), each other
// language's file is its translation. These tests keep them in step, so that a translation can never
// lose an argument, a tag or a plural form its language needs, and so that a broken message shows its
// English default instead of breaking a screen.

type Catalog = Record<string, string>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const enPath = path.join(root, 'apps/web/src/locales/en.json');
const translations = locales
  .filter((locale) => locale !== 'en')
  .map((locale) => ({
    locale,
    catalog: JSON.parse(readFileSync(path.join(root, `apps/web/src/locales/${locale}.json`), 'utf8')) as Catalog,
  }));

/** Splits a package.json script into its words (single and double quotes group words, no escapes). */
function words(script: string): string[] {
  return [...script.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

describe('message catalogs', () => {
  it('has a catalog for every language but English', () => {
    expect(translations.map((translation) => translation.locale)).toEqual(['de', 'fr', 'es', 'ja', 'ar']);
  });

  it.each(translations)('has in $locale every English message, in the same order, and no other', ({ catalog }) => {
    expect(Object.keys(catalog)).toEqual(Object.keys(en));
  });

  it.each(translations)(
    'writes every $locale message as ICU with the English arguments and tags, and every plural form of the language',
    ({ locale, catalog }) => {
      expect(catalogProblems(en, catalog, locale)).toEqual([]);
    },
  );

  it('parses every English message as ICU MessageFormat', () => {
    const failures: string[] = [];
    for (const [id, message] of Object.entries(en as Catalog)) {
      try {
        parse(message);
      } catch (error) {
        failures.push(`en ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('finds a missing plural form, a lost argument and a broken message in a catalog', () => {
    const english = { tickets: '{count, plural, one {# ticket} other {# tickets}} for {name}' };
    expect(catalogProblems(english, { tickets: '{count, plural, one {# تذكرة} other {# تذاكر}} {name}' }, 'ar')).toEqual([
      'ar tickets: {count, plural} has no few, many, two, zero',
    ]);
    expect(catalogProblems(english, { tickets: '{count, plural, other {#枚}}' }, 'ja')[0]).toMatch(/arguments and tags/);
    expect(catalogProblems(english, { tickets: '{count, plural, one {#' }, 'fr')[0]).toMatch(/^fr tickets: /);
    expect(catalogProblems(english, {}, 'es')).toEqual(['es lacks tickets']);
  });

  it('has an en.json that matches the messages in the code', () => {
    const script = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts['i18n:extract'];
    expect(script, 'package.json has an i18n:extract script').toBeTypeOf('string');
    const [command, ...args] = words(script ?? '');
    expect(command, 'i18n:extract runs the formatjs CLI').toBe('formatjs');
    const outFile = args.indexOf('--out-file');
    expect(outFile, 'i18n:extract writes an --out-file').toBeGreaterThan(-1);

    const tmp = mkdtempSync(path.join(tmpdir(), 'admit-i18n-'));
    try {
      const extracted = path.join(tmp, 'en.json');
      args[outFile + 1] = extracted;
      const require = createRequire(import.meta.url);
      const cliPackage = require.resolve('@formatjs/cli/package.json');
      const { bin } = JSON.parse(readFileSync(cliPackage, 'utf8')) as { bin: Record<string, string> };
      const cli = path.join(path.dirname(cliPackage), bin.formatjs ?? 'bin/formatjs');
      const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
      expect(result.status, `formatjs extract failed:\n${result.stderr}`).toBe(0);

      const fresh = JSON.parse(readFileSync(extracted, 'utf8')) as Catalog;
      expect(Object.keys(fresh).length, 'the extraction found messages').toBeGreaterThan(0);
      const committed = JSON.parse(readFileSync(enPath, 'utf8')) as Catalog;
      expect(committed, 'apps/web/src/locales/en.json is out of date: run `npm run i18n:extract` (and update de.json)').toEqual(
        fresh,
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a broken or missing message', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the default message instead of breaking rendering, and warns once per distinct problem even when rendered twice', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const page = () =>
      createElement(
        IntlProvider,
        { locale: 'de', messages: { x: '{broken' }, onError: onIntlError },
        createElement(
          Fragment,
          null,
          createElement(FormattedMessage, { id: 'x', defaultMessage: 'Fallback text' }),
          createElement(FormattedMessage, { id: 'missing.id', defaultMessage: 'Default {name}', values: {} }),
        ),
      );

    let first = '';
    expect(() => {
      first = renderToString(page());
    }).not.toThrow();
    expect(first).toContain('Fallback text');
    expect(first).toContain('Default');
    const warnedOnce = warn.mock.calls.map((call) => String(call[0]));
    expect(
      warnedOnce.some((text) => text.includes('"x"')),
      'warns about the broken message',
    ).toBe(true);
    expect(
      warnedOnce.some((text) => text.includes('"missing.id"')),
      'warns about the missing message',
    ).toBe(true);

    let second = '';
    expect(() => {
      second = renderToString(page());
    }).not.toThrow();
    expect(second).toContain('Fallback text');
    expect(new Set(warnedOnce).size, 'each problem is warned about once').toBe(warnedOnce.length);
    expect(
      warn.mock.calls.map((call) => String(call[0])),
      'the second render warns about nothing new',
    ).toEqual(warnedOnce);
  });
});
