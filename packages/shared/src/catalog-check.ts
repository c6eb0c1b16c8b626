import { isPluralElement, parse } from '@formatjs/icu-messageformat-parser';
import { messageSignature, walkMessage } from './message-signature';

/**
 * What is wrong with a translated catalog, measured against its English source: ids missing or
 * extra, messages that are not ICU MessageFormat, arguments or tags other than the English ones,
 * and plural messages without every plural category the language has (Arabic's zero, one, two,
 * few, many and other; French's one, many, other). An empty list when nothing is.
 */
export function catalogProblems(english: Record<string, string>, translated: Record<string, string>, locale: string): string[] {
  const problems: string[] = [];
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  for (const id of Object.keys(english)) if (!(id in translated)) problems.push(`${locale} lacks ${id}`);
  for (const id of Object.keys(translated)) if (!(id in english)) problems.push(`${locale} has ${id}, which English has not`);
  for (const [id, message] of Object.entries(translated)) {
    const source = english[id];
    if (source === undefined) continue;
    try {
      const expected = JSON.stringify(messageSignature(source));
      const actual = JSON.stringify(messageSignature(message));
      if (actual !== expected) problems.push(`${locale} ${id}: arguments and tags ${actual}, English ${expected}`);
      walkMessage(parse(message, { requiresOtherClause: false }), (element) => {
        if (!isPluralElement(element)) return;
        const missing = categories.filter((category) => !(category in element.options));
        if (missing.length > 0) problems.push(`${locale} ${id}: {${element.value}, plural} has no ${missing.join(', ')}`);
      });
    } catch (error) {
      problems.push(`${locale} ${id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}
