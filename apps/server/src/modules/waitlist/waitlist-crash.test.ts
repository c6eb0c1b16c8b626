import { randomUUID } from 'node:crypto';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { configureWaitlist, joinWaitlist } from '@admit/shared/waitlist';
import { asc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ManagedProcess } from '../../../../../deploy/processes';
import { outboxMessage } from '../../platform/mail/schema';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp } from '../../testing/test-app';
import { startWorkerProcess } from '../../testing/worker-process';
import { waitlistEntry } from './schema';

// A worker process killed while it offers freed places to a waiting list, and started again: every
// freed place is offered once, to the people first in line, and each of them is emailed once.
// PostgreSQL only: the embedded database belongs to one process.

describe('a worker killed while it offers places to a waiting list', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'offers nothing twice and loses nothing',
    async () => {
      const t = await createTestApp({ env: { JOB_WORKERS: 'off', ORDER_ATTEMPTS_PER_ADDRESS: '10000' } });
      const workers: ManagedProcess[] = [];
      try {
        const owner = await t.signUp('Olga Owner');
        const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
          capacity: 30,
          ticketTypes: [{ capacity: 30 }],
        });
        const ticketTypeId = ticketTypeIds[0]!;
        await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
        const holders = await Promise.all(Array.from({ length: 10 }, (_, index) => t.signUp(`Holder ${index + 1}`)));
        const orderIds: string[] = [];
        for (const holder of holders) {
          const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 3 }] }, holder.cookie);
          orderIds.push(placed.body.result.orderId);
        }
        const waiting = [];
        for (let index = 0; index < 45; index++) {
          const person = await t.signUp(`Waiting ${String(index).padStart(2, '0')}`);
          expect((await t.call(joinWaitlist, { eventId, ticketTypeId, quantity: 1 }, person.cookie)).status).toBe(200);
          waiting.push(person);
        }
        // Thirty places come free while no worker runs: the job that offers them waits.
        await Promise.all(
          orderIds.map((orderId) =>
            t.call(refundOrder, { orderId, reason: 'Cannot come', idempotencyKey: randomUUID() }, owner.cookie),
          ),
        );

        const startWorker = async () => {
          const worker = await startWorkerProcess(t);
          workers.push(worker);
          return worker;
        };
        const offered = async () => (await t.db.select().from(waitlistEntry).where(eq(waitlistEntry.status, 'offered'))).length;
        const offerMails = () => t.db.select().from(outboxMessage).where(like(outboxMessage.subject, 'Places came free%'));

        // Killed as soon as it runs, then again once the offers are made and their emails going out.
        await (await startWorker()).stop('SIGKILL');
        const second = await startWorker();
        await expect.poll(offered, { timeout: 60_000, interval: 20 }).toBe(30);
        await second.stop('SIGKILL');
        await startWorker();
        await expect.poll(async () => (await offerMails()).length, { timeout: 60_000, interval: 100 }).toBe(30);

        const entries = await t.db.select().from(waitlistEntry).orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id));
        expect(entries.map((entry) => entry.status)).toEqual([...Array(30).fill('offered'), ...Array(15).fill('waiting')]);
        const mails = await offerMails();
        expect(new Set(mails.map((mail) => mail.to)).size).toBe(30);
        expect(mails.map((mail) => mail.to).sort()).toEqual(
          waiting
            .slice(0, 30)
            .map((person) => person.user.email)
            .sort(),
        );
        expect(await dataInvariantViolations(t.db)).toEqual([]);
      } finally {
        for (const worker of workers) if (worker.running()) await worker.stop('SIGTERM');
        await t.close();
      }
    },
    240_000,
  );
});
