import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The module rules of eslint.config.js, tried on code that breaks them: a module reaches another only
// through its surface (<module>.api.ts) or its tables (schema.ts), modules form no cycle, and a
// module reads another's tables but writes only its own (docs/decisions/0059-module-seams.md).

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

  it("refuse a module inserting, updating or deleting another module's table", async () => {
    const code = [
      "import type { Tx } from '../../platform/db/database';",
      "import { ticket } from '../tickets/schema';",
      "import { event } from '../events/schema';",
      'export async function change(tx: Tx) {',
      "  await tx.update(ticket).set({ holderName: 'x' });",
      '  await tx.delete(event);',
      '  await tx.insert(ticket).values([]);',
      '}',
      '',
    ].join('\n');
    const rules = await brokenRules('apps/server/src/modules/orders/example.ts', code);
    expect(rules).toEqual(['admit/own-tables-only', 'admit/own-tables-only', 'admit/own-tables-only']);
  });

  it("let a module read another module's table and write its own", async () => {
    const code = [
      "import { eq } from 'drizzle-orm';",
      "import type { Tx } from '../../platform/db/database';",
      "import { ticket } from '../tickets/schema';",
      "import { order } from './schema';",
      'export async function change(tx: Tx) {',
      '  const found = await tx.select().from(ticket).innerJoin(order, eq(order.id, ticket.orderId));',
      "  await tx.update(order).set({ email: 'x' });",
      '  return found;',
      '}',
      '',
    ].join('\n');
    expect(await brokenRules('apps/server/src/modules/orders/example.ts', code)).toEqual([]);
  });
});
