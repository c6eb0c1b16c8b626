import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The module rule of eslint.config.js, tried on code that breaks it: a module reaches another only
// through its surface (<module>.api.ts) or its tables (schema.ts), and modules form no cycle.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fail when `code` is the file at `filePath` (relative to the repository). */
async function brokenRules(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((message) => message.ruleId);
}

// The first lint reads the whole project's configuration and parser: seconds on a busy machine.
describe('the module boundaries', { timeout: 60_000 }, () => {
  it("refuse a module importing another module's inner file", async () => {
    const rules = await brokenRules(
      'apps/server/src/modules/checkin/example.ts',
      "import { createOrder } from '../orders/create-order';\nexport const used = createOrder;\n",
    );
    expect(rules).toContain('import-x/no-restricted-paths');
  });

  it("let a module import another module's surface and its tables", async () => {
    const rules = await brokenRules(
      'apps/server/src/modules/checkin/example.ts',
      "import { orderTopics } from '../orders/orders.api';\nimport { order } from '../orders/schema';\nexport const used = [orderTopics, order];\n",
    );
    expect(rules).toEqual([]);
  });

  it("refuse app.ts importing a module's inner file", async () => {
    const rules = await brokenRules(
      'apps/server/src/app.ts',
      "import { ordersCallables } from './modules/orders/orders.functions';\nexport const used = ordersCallables;\n",
    );
    expect(rules).toContain('import-x/no-restricted-paths');
  });

  it('refuse a cycle between modules, even through their surfaces', async () => {
    // orders already depends on events (its topics name the event's); events depending on orders closes a cycle.
    const rules = await brokenRules(
      'apps/server/src/modules/events/topics.ts',
      "import { orderTopic } from '../orders/orders.api';\nexport const eventTopic = (eventId: string) => orderTopic(eventId);\n",
    );
    expect(rules).toContain('import-x/no-cycle');
  });
});
