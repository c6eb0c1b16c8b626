/**
 * Checks one translated catalog against its English source while translating (the tests check
 * every catalog the same way): npx tsx scripts/check-catalog.ts <en.json> <xx.json> <locale>
 */
import { readFileSync } from 'node:fs';
import { catalogProblems } from '../packages/shared/src/catalog-check';

const [englishPath, translatedPath, locale] = process.argv.slice(2);
if (!englishPath || !translatedPath || !locale) throw new Error('usage: check-catalog <en.json> <xx.json> <locale>');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
const translated = read(translatedPath);
const problems = catalogProblems(read(englishPath), translated, locale);
console.log(problems.length > 0 ? problems.join('\n') : `ok: ${Object.keys(translated).length} messages`);
process.exitCode = problems.length > 0 ? 1 : 0;
