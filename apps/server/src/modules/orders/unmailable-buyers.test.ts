import { randomUUID } from 'node:crypto';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { cookiesOf, createTestApp, type TestApp } from '../../testing/test-app';

// A buyer who cannot be emailed (signed in with a phone number, no address added yet) costs no
// email job at all: in a rush, a job that only finds out there is nobody to write to costs as much
// to fetch, run and complete as one that sends.

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Organizer');
});
afterAll(() => t?.close());

/** Signs a new person in with a phone number and the code sent to it by SMS. */
async function phoneBuyer(phoneNumber: string): Promise<string> {
  const post = (path: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth${path}`,
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      payload: JSON.stringify(payload),
    });
  expect((await post('/phone-number/send-otp', { phoneNumber })).statusCode).toBe(200);
  const code = (await t.lastMessageTo(phoneNumber, 'sms')).text.match(/\b\d{6}\b/)![0];
  const verified = await post('/phone-number/verify', { phoneNumber, code });
  expect(verified.statusCode).toBe(200);
  return cookiesOf(verified.headers['set-cookie']);
}

/** The jobs of a kind ever enqueued (waiting, done, or archived) whose data's `field` is `value`. */
async function jobsOf(name: string, field: string, value: string): Promise<number> {
  const { rows } = await t.database.execute(
    `select count(*)::int as jobs from (
       select id from pgboss.job where name = $1 and data->>$2 = $3
       union all
       select id from pgboss.archive where name = $1 and data->>$2 = $3) as found`,
    [name, field, value],
  );
  return Number(rows[0]!.jobs);
}
const confirmationJobs = (orderId: string) => jobsOf('orders.sendConfirmation', 'orderId', orderId);

async function order(cookie: string, eventId: string, ticketTypeId: string): Promise<string> {
  const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, cookie);
  expect(placed.status).toBe(200);
  return placed.body.result.orderId as string;
}

describe('a buyer who cannot be emailed', () => {
  it('gets a free order’s tickets with no email job, where a buyer with an address gets one', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
    const byPhone = await order(await phoneBuyer('+491510000701'), eventId, ticketTypeIds[0]!);
    const byEmail = await order((await t.signUp('Ella Email')).cookie, eventId, ticketTypeIds[0]!);

    expect(await confirmationJobs(byPhone)).toBe(0);
    expect(await confirmationJobs(byEmail)).toBe(1);
  });

  it('pays for tickets and is refunded with no email job either', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 10, price: 1500 }],
    });
    const cookie = await phoneBuyer('+491510000702');
    const orderId = await order(cookie, eventId, ticketTypeIds[0]!);
    expect(await payWithTestCard(t, cookie, orderId)).toBe('paid');
    expect(await confirmationJobs(orderId)).toBe(0);

    const refunded = await t.call(refundOrder, { orderId, reason: 'Changed plans', idempotencyKey: randomUUID() }, owner.cookie);
    expect(refunded.status).toBe(200);
    expect(await jobsOf('orders.sendRefundNotice', 'refundId', refunded.body.result.refundId as string)).toBe(0);
  });
});
