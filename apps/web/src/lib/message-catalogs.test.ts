/// <reference types="node" />
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPluralElement, parse } from '@formatjs/icu-messageformat-parser';
import { messageSignature as signature, walkMessage as walk } from '@admit/shared/message-signature';
import { createElement, Fragment } from 'react';
import { renderToString } from 'react-dom/server';
import { FormattedMessage, IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import de from '../locales/de.json';
import en from '../locales/en.json';
import { onIntlError } from './i18n';

// The message catalogs: en.json is extracted from the code (`npm run i18n:extract`), de.json is its
// German translation. These tests keep the two in step, so that a translation can never lose an
// argument or a tag, and so that a broken message shows its English default instead of breaking a screen.

type Catalog = Record<string, string>;
const catalogs: Record<'en' | 'de', Catalog> = { en, de };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const enPath = path.join(root, 'apps/web/src/locales/en.json');

/** Splits a package.json script into its words (single and double quotes group words, no escapes). */
function words(script: string): string[] {
  return [...script.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

describe('message catalogs', () => {
  it('has every English message id in the German catalog, and no German id that English lacks', () => {
    const enIds = Object.keys(en).sort();
    const deIds = Object.keys(de).sort();
    expect(
      enIds.filter((id) => !(id in de)),
      'ids missing from de.json',
    ).toEqual([]);
    expect(
      deIds.filter((id) => !(id in en)),
      'ids in de.json that en.json does not have',
    ).toEqual([]);
    expect(Object.keys(de), 'de.json keeps the order of en.json').toEqual(Object.keys(en));
  });

  it('parses every message of both catalogs as ICU MessageFormat', () => {
    const failures: string[] = [];
    for (const [locale, catalog] of Object.entries(catalogs)) {
      for (const [id, message] of Object.entries(catalog)) {
        try {
          parse(message);
        } catch (error) {
          failures.push(`${locale} ${id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('uses exactly the same argument and tag names in each German message as in the English one', () => {
    const mismatches: string[] = [];
    for (const [id, english] of Object.entries(en)) {
      const german = (de as Catalog)[id];
      if (german === undefined) continue; // reported by the first test
      let expected: ReturnType<typeof signature>;
      let actual: ReturnType<typeof signature>;
      try {
        expected = signature(english);
        actual = signature(german);
      } catch {
        mismatches.push(`${id}: does not parse (see the ICU test)`);
        continue;
      }
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        mismatches.push(`${id}: en ${JSON.stringify(expected)}, de ${JSON.stringify(actual)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('gives every plural message an other case in both catalogs', () => {
    const missing: string[] = [];
    let plurals = 0;
    for (const [locale, catalog] of Object.entries(catalogs)) {
      for (const [id, message] of Object.entries(catalog)) {
        walk(parse(message, { requiresOtherClause: false }), (element) => {
          if (!isPluralElement(element)) return;
          plurals += 1;
          if (!('other' in element.options)) missing.push(`${locale} ${id}: {${element.value}, plural} has no other case`);
        });
      }
    }
    expect(plurals, 'the catalogs have plural messages to check').toBeGreaterThan(0);
    expect(missing).toEqual([]);
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
