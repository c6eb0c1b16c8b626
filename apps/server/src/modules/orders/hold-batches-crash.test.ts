import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freePort, startProcess, type ManagedProcess } from '../../../../../deploy/processes';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, testAuthSecret, type TestApp } from '../../testing/test-app';
import { startWorkerProcess } from '../../testing/worker-process';
import { event } from '../events/schema';
import { order } from './schema';

// A web process killed (SIGKILL) while buyers race for the last places of a paid ticket type, whose
// holds are made together in one statement per batch (place-order.ts): each order is whole or
// absent, a buyer sending theirs again with the same key gets one order, no place is held twice or
// lost, and every hold still ends at its time, by the job written with it.
// PostgreSQL only: the embedded database belongs to one process.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const capacity = 60;

async function startWebProcess(t: TestApp, port: number): Promise<ManagedProcess> {
  return startProcess({
    name: 'web',
    command: process.execPath,
    args: ['--import', 'tsx', 'apps/server/src/main.ts'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: t.database.url!,
      AUTH_SECRET: testAuthSecret,
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: t.config.DATA_DIR,
      JOB_WORKERS: 'off',
      ORDER_ATTEMPTS_PER_ADDRESS: '100000',
    },
    cwd: root,
    readyWhen: /Admit is running/,
    timeoutMs: 60_000,
  });
}

type Answer = { status: 'pending'; orderId: string } | { status: 'sold-out' } | null;

/** One buyer's order sent to the web process; null when the connection ended without an answer. */
async function sendOrder(port: number, cookie: string, data: unknown): Promise<Answer> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/fn/orders.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
      body: JSON.stringify({ data }),
    });
    const body = (await response.json()) as { result?: { status: string; orderId: string }; error?: { status: string } };
    if (body.result?.status === 'pending') return { status: 'pending', orderId: body.result.orderId };
    if (response.status === 429 && body.error) return { status: 'sold-out' };
    throw new Error(`unexpected answer ${response.status} ${JSON.stringify(body)}`);
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

describe('a web process killed while buyers race for the last paid places', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'holds no place twice, loses none, makes one order per key, and every hold still ends at its time',
    async () => {
      const t = await createTestApp({ env: { JOB_WORKERS: 'off', ORDER_ATTEMPTS_PER_ADDRESS: '100000' } });
      const processes: ManagedProcess[] = [];
      try {
        const owner = await t.signUp('Olga Owner');
        const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
          capacity,
          ticketTypes: [{ capacity, price: 2000 }],
        });
        const buyers = await Promise.all(Array.from({ length: 100 }, (_, index) => t.signUp(`Racer ${index + 1}`)));
        const orders = buyers.map((buyer, index) => ({
          cookie: buyer.cookie,
          data: {
            eventId,
            lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 + (index % 2) }],
            idempotencyKey: randomUUID(),
          },
        }));

        const port = await freePort();
        const first = await startWebProcess(t, port);
        processes.push(first);
        const answers: Answer[] = new Array(orders.length).fill(null);
        let answered = 0;
        // Killed once a few buyers have their answer, with the rest of the rush under way.
        const killed = new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (answered < 10) return;
            clearInterval(check);
            void first.stop('SIGKILL').then(() => resolve());
          }, 1);
        });
        await Promise.all(
          orders.map(async (one, index) => {
            // The rush spread over half a second, so that the kill comes in its middle.
            await new Promise((resolve) => setTimeout(resolve, index * 5));
            answers[index] = await sendOrder(port, one.cookie, one.data);
            if (answers[index]) answered++;
          }),
        );
        await killed;
        const unanswered = answers.filter((answer) => answer === null).length;
        expect(unanswered).toBeGreaterThan(0);

        // Started again; each buyer without an answer sends the same order again, with its key.
        processes.push(await startWebProcess(t, port));
        for (const [index, one] of orders.entries())
          if (answers[index] === null) answers[index] = await sendOrder(port, one.cookie, one.data);
        expect(answers.every((answer) => answer !== null)).toBe(true);

        const made = await t.db.select().from(order).where(eq(order.eventId, eventId));
        // One order per key, and each answered order is the one made.
        expect(made.length).toBe(new Set(made.map((one) => one.idempotencyKey)).size);
        const pendingAnswers = answers.filter((answer) => answer?.status === 'pending');
        expect(new Set(pendingAnswers.map((answer) => (answer as { orderId: string }).orderId))).toEqual(
          new Set(made.map((one) => one.id)),
        );
        const [places] = await t.db.select({ held: event.held, sold: event.sold }).from(event).where(eq(event.id, eventId));
        const heldByOrders = made.reduce((sum, one) => sum + one.total / 2000, 0);
        expect(places).toEqual({ held: heldByOrders, sold: 0 });
        // Sold out was said only once too few places were left for that buyer.
        expect(capacity - places!.held).toBeLessThan(2);
        // Each hold has the one job that ends it, at its time.
        const { rows: jobs } = await t.database.execute(
          `select data->>'orderId' as order_id from pgboss.job where name = 'orders.expireHold' and data->>'orderId' = any($1)`,
          [made.map((one) => one.id)],
        );
        expect((jobs as { order_id: string }[]).map((job) => job.order_id).sort()).toEqual(made.map((one) => one.id).sort());
        expect(await dataInvariantViolations(t.db)).toEqual([]);

        // Their time passes: a worker ends every hold and gives every place back.
        await t.db
          .update(order)
          .set({ holdExpiresAt: sql`now() - interval '1 second'` })
          .where(eq(order.eventId, eventId));
        await t.database.execute(`update pgboss.job set start_after = now() where name = 'orders.expireHold'`);
        processes.push(await startWorkerProcess(t));
        await expect
          .poll(async () => (await t.db.select({ held: event.held }).from(event).where(eq(event.id, eventId)))[0]!.held, {
            timeout: 60_000,
            interval: 100,
          })
          .toBe(0);
        const ended = await t.db.select({ status: order.status }).from(order).where(eq(order.eventId, eventId));
        expect(ended.every((one) => one.status === 'expired')).toBe(true);
        expect(await dataInvariantViolations(t.db)).toEqual([]);
      } finally {
        for (const one of processes) if (one.running()) await one.stop('SIGTERM');
        await t.close();
      }
    },
    180_000,
  );
});
