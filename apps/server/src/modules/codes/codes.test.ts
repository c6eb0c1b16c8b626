import { randomUUID } from 'node:crypto';
import { createCode, deleteCode, eventCodes, codeTicketTypes, updateCode, type CreateCodeInput } from '@admit/shared/codes';
import { ticketAvailability } from '@admit/shared/events';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addTicketTypeAs, changeTicketTypeAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ordersJobs } from '../orders/orders.api';
import { order } from '../orders/schema';

// Access codes: a hidden ticket type is shown and sold only to buyers with a code that unlocks
// it, within the code's limits, which hold like capacity (decision 0047).

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;

beforeAll(async () => {
  // Buyers here send many orders from one address: their attempts are not what is tested.
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000', ORDER_ATTEMPTS_PER_ADDRESS: '100000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
});
afterAll(() => t?.close());

/** Hides a ticket type through the callable its editor uses, keeping everything else. */
const hide = (eventId: string, ticketTypeId: string) =>
  changeTicketTypeAs(t, url, owner.cookie, { eventId, ticketTypeId }, { hidden: true });

/** A published event with a public type and a hidden one (Press), and a code for the hidden one. */
async function eventWithCode(code: Partial<CreateCodeInput> = {}, options: { price?: number; capacity?: number } = {}) {
  const { eventId, organizationId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    capacity: 1000,
    ticketTypes: [{ name: 'Standing', capacity: 400 }],
  });
  const pressId = await addTicketTypeAs(t, owner.cookie, eventId, {
    name: 'Press',
    capacity: options.capacity ?? 500,
    price: options.price ?? 0,
  });
  await hide(eventId, pressId);
  const created = await t.call(createCode, { eventId, code: 'PRESS-2030', ticketTypeIds: [pressId], ...code }, owner.cookie);
  expect(created.status).toBe(200);
  return { eventId, organizationId, pressId, publicId: ticketTypeIds[0]!, codeId: created.body.result.codeId as string };
}

const orderWith = (cookie: string, eventId: string, ticketTypeId: string, quantity: number, code?: string) =>
  t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }], ...(code ? { code } : {}) }, cookie);

const reasonOf = (answer: { body: { error?: { details?: { reason?: string } } } }) => answer.body.error?.details?.reason;

describe('an access code', () => {
  it('shows the hidden ticket type to a buyer who has it, written in any case, and sells it to them only', async () => {
    const { eventId, pressId } = await eventWithCode();
    const buyer = await t.signUp('Pia Press');

    const page = await watch(url, ticketAvailability.name, { eventId });
    expect(page.rows().map((row) => row.name)).toEqual(['Standing']);
    page.close();
    await expect(watch(url, codeTicketTypes.name, { eventId, code: 'PRESS-2031' })).rejects.toMatchObject({
      details: { reason: 'unknown-code' },
    });
    const unlocked = await watch(url, codeTicketTypes.name, { eventId, code: 'press-2030' });
    expect(unlocked.rows()).toMatchObject([{ id: pressId, name: 'Press', remaining: 500, code: 'PRESS-2030' }]);
    unlocked.close();

    const without = await orderWith(buyer.cookie, eventId, pressId, 1);
    expect(without.body.error.details.fields).toEqual([
      { path: 'lines.0.ticketTypeId', message: 'No such ticket type for this event', code: 'not_found' },
    ]);
    expect(reasonOf(await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2031'))).toBe('unknown-code');

    const bought = await orderWith(buyer.cookie, eventId, pressId, 2, 'Press-2030');
    expect(bought.body.result).toMatchObject({ status: 'paid', ticketCount: 2 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('is made by admins only, for hidden types of its event, and is unique in its event without case', async () => {
    const { eventId, organizationId, publicId, pressId } = await eventWithCode();
    const refused = await t.call(createCode, { eventId, code: 'open-door', ticketTypeIds: [publicId] }, owner.cookie);
    expect(refused.body.error.details).toEqual({ reason: 'not-hidden-type', ticketTypeId: publicId });
    const twice = await t.call(createCode, { eventId, code: 'press-2030', ticketTypeIds: [pressId] }, owner.cookie);
    expect(twice.body.error.details).toEqual({ reason: 'code-taken' });
    const dash = await t.callWithAnyInput(createCode, { eventId, code: '-SALE', ticketTypeIds: [pressId] }, owner.cookie);
    expect(dash.body.error.details.fields).toMatchObject([{ path: 'code' }]);
    const badInput = await t.callWithAnyInput(createCode, { eventId, code: 'no spaces!', ticketTypeIds: [] }, owner.cookie);
    expect(badInput.status).toBe(400);
    expect(badInput.body.error.details.fields.map((field: { path: string }) => field.path).sort()).toEqual([
      'code',
      'ticketTypeIds',
    ]);

    const staff = await t.signUp('Sam Staff');
    await addMember(t, organizationId, staff.user.id, 'staff');
    expect((await t.call(createCode, { eventId, code: 'STAFF', ticketTypeIds: [pressId] }, staff.cookie)).status).toBe(403);
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    expect(list.rows().map((row) => row.code)).toEqual(['PRESS-2030']);
    list.close();
  });

  it("counts a guest's tickets with the code against the limit per buyer of the person with that address", async () => {
    const { eventId, pressId } = await eventWithCode({ maxPerBuyer: 2 });
    const person = await t.signUp('Gus Guest');
    const asGuest = (quantity: number, email = person.email.toUpperCase()) =>
      t.call(createOrder, {
        eventId,
        lines: [{ ticketTypeId: pressId, quantity }],
        code: 'press-2030',
        guest: { name: 'Gus', email },
      });
    expect((await asGuest(1)).status).toBe(200);
    // The same address again as a guest: one more, not two.
    expect((await asGuest(2)).body.error.details).toEqual({ reason: 'code-buyer-limit', limit: 2, have: 1 });
    // Signed in with that address: the guest's held ticket counts.
    const signedIn = await orderWith(person.cookie, eventId, pressId, 2, 'PRESS-2030');
    expect(signedIn.body.error.details).toEqual({ reason: 'code-buyer-limit', limit: 2, have: 1 });
    expect((await orderWith(person.cookie, eventId, pressId, 1, 'PRESS-2030')).status).toBe(200);
    // Another address is another buyer.
    expect((await asGuest(2, 'someone-else@example.test')).status).toBe(200);
  });

  it('sells no more tickets than its limit, in all and per buyer, and says how many are left', async () => {
    const { eventId, pressId } = await eventWithCode({ maxUses: 5, maxPerBuyer: 3 });
    const [ana, ben] = [await t.signUp('Ana'), await t.signUp('Ben')];
    expect((await orderWith(ana.cookie, eventId, pressId, 2, 'PRESS-2030')).status).toBe(200);
    const perBuyer = await orderWith(ana.cookie, eventId, pressId, 2, 'PRESS-2030');
    expect(perBuyer.body.error.details).toEqual({ reason: 'code-buyer-limit', limit: 3, have: 2 });
    expect((await orderWith(ben.cookie, eventId, pressId, 3, 'PRESS-2030')).status).toBe(200);
    const usedUp = await orderWith(ana.cookie, eventId, pressId, 1, 'PRESS-2030');
    expect(usedUp.body.error.details).toEqual({ reason: 'code-used-up', remaining: 0 });

    const unlocked = await watch(url, codeTicketTypes.name, { eventId, code: 'PRESS-2030' });
    expect(unlocked.rows()[0]).toMatchObject({ remaining: 0, maxPerBuyer: 3 });
    unlocked.close();
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    expect(list.rows()[0]).toMatchObject({ used: 5, orders: 2, maxUses: 5 });
    list.close();
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('gets its uses back when a hold ends unpaid and when a ticket is refunded, live on the admin list', async () => {
    const { eventId, pressId, codeId } = await eventWithCode({ maxUses: 2 }, { price: 2000 });
    const buyer = await t.signUp('Hal Holder');
    const held = await orderWith(buyer.cookie, eventId, pressId, 2, 'PRESS-2030');
    expect(held.body.result.status).toBe('pending');
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    expect(list.rows()[0]).toMatchObject({ id: codeId, used: 2 });
    expect(reasonOf(await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030'))).toBe('code-used-up');

    // The hold runs out; its job has not run yet: the next order releases it and gets the uses.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, held.body.result.orderId));
    const again = await orderWith(buyer.cookie, eventId, pressId, 2, 'PRESS-2030');
    expect(again.body.result.status).toBe('pending');
    await expect.poll(() => list.rows()[0].used, { timeout: 10_000 }).toBe(2);
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, again.body.result.orderId));
    // Its job, as at the hold's end: it releases the places and tells the watchers.
    const expireHold = ordersJobs.find((job) => job.name === 'orders.expireHold')!;
    await t.jobs.enqueue(t.db, expireHold as never, { orderId: again.body.result.orderId } as never);
    await expect.poll(() => list.rows()[0].used, { timeout: 10_000 }).toBe(0);
    list.close();

    const free = await eventWithCode({ maxUses: 2 });
    const first = await orderWith(buyer.cookie, free.eventId, free.pressId, 2, 'PRESS-2030');
    expect(reasonOf(await orderWith(buyer.cookie, free.eventId, free.pressId, 1, 'PRESS-2030'))).toBe('code-used-up');
    const refund = await t.call(
      refundOrder,
      { orderId: first.body.result.orderId, reason: 'Wrong person', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(refund.status).toBe(200);
    expect((await orderWith(buyer.cookie, free.eventId, free.pressId, 2, 'PRESS-2030')).status).toBe(200);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('works only inside its window, in the event’s time zone', async () => {
    const { eventId, pressId, codeId } = await eventWithCode({ validFromLocal: '2099-01-01T00:00' });
    const buyer = await t.signUp('Earl Early');
    const early = await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030');
    expect(early.body.error.details).toEqual({
      reason: 'code-not-valid-now',
      validFrom: '2098-12-31T23:00:00.000Z',
      validUntil: null,
      timeZone: 'Europe/Berlin',
    });
    await expect(watch(url, codeTicketTypes.name, { eventId, code: 'PRESS-2030' })).rejects.toMatchObject({
      details: { reason: 'code-not-valid-now' },
    });

    const opened = await t.call(
      updateCode,
      { eventId, codeId, code: 'PRESS-2030', ticketTypeIds: [pressId], validUntilLocal: '2099-01-01T00:00' },
      owner.cookie,
    );
    expect(opened.status).toBe(200);
    expect((await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030')).status).toBe(200);
  });

  it('is kept once an order used it, and its limit stays at or above what was bought with it', async () => {
    const { eventId, pressId, codeId } = await eventWithCode();
    const buyer = await t.signUp('Kim Kept');
    expect((await orderWith(buyer.cookie, eventId, pressId, 3, 'PRESS-2030')).status).toBe(200);
    const lower = await t.call(
      updateCode,
      { eventId, codeId, code: 'PRESS-2030', ticketTypeIds: [pressId], maxUses: 2 },
      owner.cookie,
    );
    expect(lower.body.error.details).toEqual({ reason: 'code-limit-below-used', used: 3 });
    const removed = await t.call(deleteCode, { eventId, codeId }, owner.cookie);
    expect(removed.body.error.details).toEqual({ reason: 'code-in-use', orders: 1 });

    const unused = await t.call(createCode, { eventId, code: 'CREW', ticketTypeIds: [pressId] }, owner.cookie);
    expect((await t.call(deleteCode, { eventId, codeId: unused.body.result.codeId }, owner.cookie)).status).toBe(200);
    const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
    expect(list.rows().map((row) => row.code)).toEqual(['PRESS-2030']);
    list.close();
  });
});

describe('an access code under a rush', () => {
  // PostgreSQL runs the orders at once; PGlite would take them one at a time.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'with a limit of 50 sells exactly 50 tickets to 500 orders sent at once by 25 buyers',
    async () => {
      const { eventId, pressId, codeId } = await eventWithCode({ maxUses: 50 });
      const buyers = await Promise.all(Array.from({ length: 25 }, (_, index) => t.signUp(`Rusher ${index}`)));
      const answers = await Promise.all(
        buyers.flatMap((buyer) => Array.from({ length: 20 }, () => orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030'))),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(50);
      const refusals = answers.filter((answer) => answer.status !== 200).map(reasonOf);
      expect(new Set(refusals)).toEqual(new Set(['code-used-up']));
      const list = await watch(url, eventCodes.name, { eventId }, owner.cookie);
      expect(list.rows().find((row) => row.id === codeId)).toMatchObject({ used: 50, orders: 50 });
      list.close();
      expect(await dataInvariantViolations(t.db)).toEqual([]);
    },
    120_000,
  );
});

describe('guessing codes', () => {
  // A server of its own: the wrong codes above counted against the same address.
  beforeAll(async () => {
    await t.close();
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.signUp('Olga Owner');
  });

  it('is stopped after twenty wrong codes from one address: then even the right code is refused', async () => {
    const { eventId, pressId } = await eventWithCode();
    const buyer = await t.signUp('Gus Guesser');
    for (let attempt = 0; attempt < 20; attempt++)
      expect(reasonOf(await orderWith(buyer.cookie, eventId, pressId, 1, `GUESS-${attempt}`))).toBe('unknown-code');
    expect(reasonOf(await orderWith(buyer.cookie, eventId, pressId, 1, 'GUESS-20'))).toBe('too-many-code-attempts');
    const right = await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030');
    expect(right.status).toBe(429);
    expect(reasonOf(right)).toBe('too-many-code-attempts');
    expect(right.body.error.details).toMatchObject({ reason: 'too-many-code-attempts' });
    await expect(watch(url, codeTicketTypes.name, { eventId, code: 'PRESS-2030' })).rejects.toMatchObject({
      details: { reason: 'too-many-code-attempts' },
    });
  });

  it('answers at most twenty of forty wrong codes sent at once, then refuses even the right one', async () => {
    await t.close();
    t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000' } });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.signUp('Olga Owner');
    const { eventId, pressId } = await eventWithCode();
    const buyer = await t.signUp('Bea Burst');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => orderWith(buyer.cookie, eventId, pressId, 1, `BURST-${index}`)),
    );
    const reasons = answers.map(reasonOf);
    expect(reasons.filter((reason) => reason === 'unknown-code').length).toBeLessThanOrEqual(20);
    expect(reasons.filter((reason) => reason === 'too-many-code-attempts').length).toBeGreaterThanOrEqual(20);
    expect(reasonOf(await orderWith(buyer.cookie, eventId, pressId, 1, 'PRESS-2030'))).toBe('too-many-code-attempts');
  });
});
