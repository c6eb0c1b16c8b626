import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** WCAG 2.2 AA, as axe-core tags its rules. */
const standards = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's browser build, put into the page under test. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical WCAG 2.2 AA violations axe-core finds on the screen a page shows, each
 * with the elements it found it on: empty when there are none.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Once per document: a page that has not navigated since the last audit still has it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(options: unknown): Promise<AxeResults> } }).axe.run({
        runOnly: { type: 'tag', values: tags },
      }),
    standards,
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(', ')} — ${(violation.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ')}`,
    );
}
