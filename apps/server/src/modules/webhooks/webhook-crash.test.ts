import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrder } from '@admit/shared/orders';
import { createWebhook } from '@admit/shared/webhooks';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { ManagedProcess } from '../../../../../deploy/processes';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp } from '../../testing/test-app';
import { startWorkerProcess } from '../../testing/worker-process';

// A worker process killed in the middle of a sale while it delivers its webhooks, and started
// again: every order still reaches the receiver, signed (the outbox row was written with the order;
// the try the kill cut short is run again). PostgreSQL only: the embedded database belongs to one process.

describe('a worker killed while it delivers webhooks', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'loses none: every order of the sale reaches the receiver, signed',
    async () => {
      // Slow enough that the kill finds tries under way.
      const received = new Map<string, number>();
      let secret = '';
      let badSignatures = 0;
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          try {
            new Webhook(secret).verify(body, request.headers as Record<string, string>);
          } catch {
            badSignatures++;
          }
          const { data } = JSON.parse(body) as { data: { id: string } };
          received.set(data.id, (received.get(data.id) ?? 0) + 1);
          setTimeout(() => response.writeHead(204).end(), 30);
        });
      });
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;

      const t = await createTestApp({ env: { JOB_WORKERS: 'off', ORDER_ATTEMPTS_PER_ADDRESS: '10000' } });
      const workers: ManagedProcess[] = [];
      try {
        const organizer = await t.signUp('Olga Owner');
        const { organizationId, eventId, ticketTypeIds } = await createPublishedEvent(t, organizer.cookie, {
          capacity: 500,
          ticketTypes: [{ capacity: 500 }],
        });
        const hooked = await t.call(
          createWebhook,
          { organizationId, url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['order.created'] },
          organizer.cookie,
        );
        secret = hooked.body.result.secret;
        const buyers = await Promise.all(Array.from({ length: 20 }, (_, index) => t.signUp(`Buyer ${index + 1}`)));
        const orderIds: string[] = [];
        const sell = async (rounds: number) => {
          for (let round = 0; round < rounds; round++) {
            const answers = await Promise.all(
              buyers.map((buyer) =>
                t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] }, buyer.cookie),
              ),
            );
            for (const answer of answers) orderIds.push(answer.body.result.orderId);
          }
        };

        const startWorker = async () => {
          const worker = await startWorkerProcess(t);
          workers.push(worker);
          return worker;
        };

        const first = await startWorker();
        await sell(3);
        await expect.poll(() => received.size, { timeout: 60_000, interval: 10 }).toBeGreaterThanOrEqual(10);
        await first.stop('SIGKILL');
        const beforeKill = received.size;
        // The sale goes on while no worker runs: its webhooks wait in the outbox.
        await sell(3);
        await startWorker();
        await expect.poll(() => received.size, { timeout: 90_000, interval: 100 }).toBe(orderIds.length);
        expect([...received.keys()].sort()).toEqual([...orderIds].sort());
        expect(badSignatures).toBe(0);
        console.info(
          `webhook crash: ${orderIds.length} orders, ${beforeKill} delivered before the kill, ` +
            `${[...received.values()].filter((count) => count > 1).length} delivered twice`,
        );
      } finally {
        for (const worker of workers) if (worker.running()) await worker.stop('SIGTERM');
        await t.close();
        await new Promise((resolve) => server.close(resolve));
      }
    },
    240_000,
  );
});
