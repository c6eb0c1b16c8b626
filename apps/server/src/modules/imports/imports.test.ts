import { applyImport, prepareImport, validateImport } from '@admit/shared/csv';
import { createOrder } from '@admit/shared/orders';
import { count, eq, like } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessage } from '../../platform/mail/schema';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';
import { importRow } from './schema';

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let owner: Person;
let buyer: Person;

beforeAll(async () => {
  t = await createTestApp();
  [owner, buyer] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Bea Buyer')]);
});
afterAll(() => t?.close());

const withLines = (rows: Record<string, unknown>[]) => rows.map((row, index) => ({ line: index + 2, ...row }));
const validate = (eventId: string, rows: Record<string, unknown>[], cookie = owner.cookie) =>
  t.call(validateImport, { eventId, rows: withLines(rows) }, cookie);
const apply = (eventId: string, rows: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
  t.call(applyImport, { eventId, rows: withLines(rows), ...extra }, owner.cookie);
const ordersOf = (eventId: string) => t.db.select().from(order).where(eq(order.eventId, eventId));
const ticketsOf = (eventId: string) => t.db.select().from(ticket).where(eq(ticket.eventId, eventId));

async function newEvent(options: { capacity?: number; types?: { name: string; capacity: number; price?: number }[] } = {}) {
  return createPublishedEvent(t, owner.cookie, {
    capacity: options.capacity ?? 100,
    ticketTypes: options.types ?? [
      { name: 'Standing', capacity: 50 },
      { name: 'VIP', capacity: 2, price: 5000 },
    ],
  });
}

describe('validating a guest list', () => {
  it('reports every kind of row error, line by line, and writes nothing', async () => {
    const { eventId } = await newEvent();
    const { status, body } = await validate(eventId, [
      { name: 'Ann Ok', email: 'ann@example.test', ticketType: 'Standing' },
      { name: ' ', email: '', ticketType: 'Standing' },
      { name: 'Bad Mail', email: 'not-an-address', ticketType: 'Standing' },
      { name: 'Who Knows', email: 'who@example.test', ticketType: 'Balcony' },
      { name: 'Zero', email: 'zero@example.test', ticketType: 'Standing', quantity: '0' },
      { name: 'Words', email: 'words@example.test', ticketType: 'Standing', quantity: 'two' },
      { name: 'Ann Again', email: ' ANN@example.test ', ticketType: 'standing' },
      { name: 'Vip One', email: 'vip1@example.test', ticketType: 'VIP', quantity: '2' },
      { name: 'Vip Two', email: 'vip2@example.test', ticketType: 'VIP' },
      { name: 'x'.repeat(201), email: 'long@example.test', ticketType: 'Standing' },
    ]);
    expect(status).toBe(200);
    const codes = body.result.rows.map((row) => [row.line, row.status, row.errors.map((error) => error.code).join(',')]);
    expect(codes).toEqual([
      [2, 'ok', ''],
      [3, 'error', 'email-missing'],
      [4, 'error', 'email-invalid'],
      [5, 'error', 'ticket-type-unknown'],
      [6, 'error', 'quantity-invalid'],
      [7, 'error', 'quantity-invalid'],
      [8, 'error', 'duplicate-row'],
      [9, 'ok', ''],
      [10, 'error', 'capacity-exceeded'],
      [11, 'error', 'too-long'],
    ]);
    expect(body.result.rows[6]!.errors[0]).toEqual({ code: 'duplicate-row', line: 2 });
    expect(await ordersOf(eventId)).toEqual([]);
  });

  it('counts the event-wide capacity as well as each ticket type’s', async () => {
    const { eventId } = await newEvent({ capacity: 3, types: [{ name: 'Standing', capacity: 50 }] });
    const { body } = await validate(eventId, [
      { email: 'a@example.test', quantity: '2' },
      { email: 'b@example.test', quantity: '2' },
      { email: 'c@example.test', quantity: '1' },
    ]);
    expect(body.result.rows.map((row) => row.status)).toEqual(['ok', 'error', 'ok']);
    expect(body.result.capacity.event).toBe(3);
  });

  it('marks rows imported before as already imported, not as errors', async () => {
    const { eventId } = await newEvent();
    await apply(eventId, [{ name: 'Ann', email: 'ann@example.test', ticketType: 'Standing' }]);
    const { body } = await validate(eventId, [
      { name: 'Ann', email: 'ann@example.test', ticketType: 'Standing' },
      { name: 'Ben', email: 'ben@example.test', ticketType: 'Standing' },
    ]);
    expect(body.result.rows.map((row) => row.status)).toEqual(['imported', 'ok']);
  });

  it('answers hostile input with invalid-argument and the fields, never a 500', async () => {
    const { eventId } = await newEvent();
    const cases: unknown[] = [
      { eventId, rows: [] },
      { eventId, rows: Array.from({ length: 1_001 }, (_, index) => ({ line: index + 2, email: 'a@example.test' })) },
      { eventId, rows: [{ line: 2, email: 'a@example.test', password: 'x' }] },
      { eventId, rows: [{ line: 0, email: 'a@example.test' }] },
      { eventId, rows: [{ line: 2, email: 'x'.repeat(1_000_001) }] },
      { eventId: 42, rows: [{ line: 2 }] },
    ];
    for (const data of cases) {
      const { status, body } = await t.callWithAnyInput(validateImport, data, owner.cookie);
      expect(status).toBe(400);
      expect(body.error.status).toBe('invalid-argument');
    }
    const { body } = await t.call(validateImport, { eventId, rows: [] }, owner.cookie);
    expect(body.error.details.fields[0].path).toBe('rows');
  });

  it('tells the browser the configured limits, and holds them on the server: more rows, or a row beyond them, is invalid-argument', async () => {
    const limited = await createTestApp({ env: { IMPORT_MAX_BYTES: '2048', IMPORT_MAX_ROWS: '10' } });
    try {
      const person = await limited.signUp('Lim Ited');
      const { eventId } = await createPublishedEvent(limited, person.cookie);
      const { body } = await limited.call(prepareImport, { eventId }, person.cookie);
      expect(body.result).toMatchObject({ maxBytes: 2048, maxRows: 10, ticketTypes: [{ name: 'Standing' }] });

      const guests = (count: number) =>
        Array.from({ length: count }, (_, index) => ({ line: index + 2, email: `g${index}@example.test` }));
      // The tenth row of a file is its line 11 (line 1 is the header): the last one allowed.
      const lastRow = [{ line: 11, email: 'last@example.test' }];
      const beyond = [{ line: 12, email: 'beyond@example.test' }];
      for (const contract of [validateImport, applyImport]) {
        const tooMany = await limited.call(contract, { eventId, rows: guests(11) }, person.cookie);
        expect(tooMany.status).toBe(400);
        expect(tooMany.body.error).toMatchObject({ status: 'invalid-argument', details: { fields: [{ path: 'rows' }] } });
        const late = await limited.call(contract, { eventId, rows: beyond }, person.cookie);
        expect(late.body.error).toMatchObject({ status: 'invalid-argument', details: { fields: [{ path: 'rows.0.line' }] } });
        expect((await limited.call(contract, { eventId, rows: lastRow }, person.cookie)).status).toBe(200);
      }
      expect((await limited.call(applyImport, { eventId, rows: guests(10) }, person.cookie)).body.result.created).toBe(10);
      const imported = await limited.db.select().from(order).where(eq(order.eventId, eventId));
      expect(imported.map((one) => one.email).sort()).toEqual(
        [...guests(10).map((row) => row.email), 'last@example.test'].sort(),
      );
    } finally {
      await limited.close();
    }
  });
});

describe('applying a guest list', () => {
  it('creates a complimentary paid order with tickets for each valid row, and skips the invalid ones', async () => {
    const { eventId, ticketTypeIds } = await newEvent();
    const { status, body } = await apply(eventId, [
      { name: '  Ann   Example ', email: 'Ann@Example.test', ticketType: 'Standing', quantity: '3', note: 'Press' },
      { name: 'Bad', email: 'bad', ticketType: 'Standing' },
    ]);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ created: 1, tickets: 3, skipped: 0, invalid: 1 });
    const [created] = await ordersOf(eventId);
    expect(created).toMatchObject({
      buyerId: null,
      buyerName: 'Ann Example',
      email: 'ann@example.test',
      status: 'paid',
      total: 0,
      paymentProvider: 'import',
    });
    const tickets = await ticketsOf(eventId);
    expect(tickets).toHaveLength(3);
    expect(tickets.every((one) => one.holderName === 'Ann Example' && one.ticketTypeId === ticketTypeIds[0])).toBe(true);
    const [standing] = await t.db.select().from(ticketType).where(eq(ticketType.id, ticketTypeIds[0]!));
    expect(standing!.sold).toBe(3);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('issues a plus-one without an email their ticket in their name, emailing nobody for that row, and once however often imported', async () => {
    const { eventId } = await newEvent();
    const rows = [
      { name: 'Ann Host', email: 'ann.host@example.test', ticketType: 'Standing' },
      { name: 'Ann Host +1', email: '', ticketType: 'Standing' },
      { name: 'Ben Plus', ticketType: 'Standing', quantity: '2' },
    ];
    const checked = await validate(eventId, rows);
    expect(checked.body.result?.rows.map((row) => row.status)).toEqual(['ok', 'ok', 'ok']);
    const { status, body } = await apply(eventId, rows, { sendEmails: true });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ created: 3, tickets: 4, invalid: 0 });
    const plusOne = (await ordersOf(eventId)).find((one) => one.buyerName === 'Ann Host +1');
    expect(plusOne).toMatchObject({ email: '', status: 'paid', paymentProvider: 'import' });
    const tickets = await ticketsOf(eventId);
    expect(tickets.filter((one) => one.holderName === 'Ben Plus' && one.holderEmail === '')).toHaveLength(2);
    await t.settleJobs();
    const mailed = await t.db.select().from(outboxMessage).where(like(outboxMessage.subject, '%'));
    expect(mailed.filter((message) => message.to === 'ann.host@example.test')).toHaveLength(1);
    expect(mailed.filter((message) => !message.to.includes('@'))).toEqual([]);

    const again = await apply(eventId, rows, { sendEmails: true });
    expect(again.body.result).toMatchObject({ created: 0, skipped: 3 });
    expect(await ticketsOf(eventId)).toHaveLength(4);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('creates nothing twice when the same file is imported again', async () => {
    const { eventId } = await newEvent();
    const rows = [
      { name: 'Ann', email: 'ann@example.test', ticketType: 'Standing' },
      { name: 'Ben', email: 'ben@example.test', ticketType: 'VIP' },
    ];
    expect((await apply(eventId, rows)).body.result.created).toBe(2);
    const again = await apply(eventId, rows);
    expect(again.body.result).toMatchObject({ created: 0, skipped: 2 });
    expect(await ordersOf(eventId)).toHaveLength(2);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('imports only the new rows of a file that overlaps an earlier one', async () => {
    const { eventId } = await newEvent();
    await apply(eventId, [
      { name: 'Ann', email: 'ann@example.test', ticketType: 'Standing' },
      { name: 'Ben', email: 'ben@example.test', ticketType: 'Standing' },
    ]);
    const { body } = await apply(eventId, [
      { name: 'Ben B.', email: 'BEN@example.test', ticketType: 'Standing' },
      { name: 'Cat', email: 'cat@example.test', ticketType: 'Standing' },
      { name: 'Cat', email: 'cat@example.test', ticketType: 'Standing' },
    ]);
    expect(body.result.rows.map((row) => row.status)).toEqual(['skipped', 'created', 'skipped']);
    expect((await ordersOf(eventId)).map((one) => one.email).sort()).toEqual([
      'ann@example.test',
      'ben@example.test',
      'cat@example.test',
    ]);
  });

  it('refuses a chunk that no longer fits, writing none of it, when buyers took the places meanwhile', async () => {
    const { eventId, ticketTypeIds } = await newEvent({ types: [{ name: 'Standing', capacity: 3 }] });
    const rows = [
      { name: 'Ann', email: 'ann@example.test', quantity: '2' },
      { name: 'Ben', email: 'ben@example.test' },
    ];
    expect((await validate(eventId, rows)).body.result.rows.every((row) => row.status === 'ok')).toBe(true);
    const bought = await t.call(
      createOrder,
      { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }] },
      buyer.cookie,
    );
    expect(bought.status).toBe(200);
    const { status, body } = await apply(eventId, rows);
    expect(status).toBe(429);
    expect(body.error).toMatchObject({ status: 'resource-exhausted', details: { requested: 3, remaining: 1 } });
    expect((await ordersOf(eventId)).filter((one) => one.buyerId === null)).toEqual([]);
    // The refused rows were not claimed: once there is room, the same file imports.
    expect((await validate(eventId, rows)).body.result.rows.map((row) => row.status)).toEqual(['error', 'ok']);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('never oversells and never duplicates when overlapping imports and buyers run at once', async () => {
    const { eventId, ticketTypeIds } = await newEvent({ capacity: 40, types: [{ name: 'Standing', capacity: 40 }] });
    const guests = Array.from({ length: 30 }, (_, index) => ({ name: `Guest ${index}`, email: `g${index}@example.test` }));
    const files = [guests.slice(0, 20), guests.slice(10, 30), guests.slice(5, 25).reverse(), guests];
    const buyers = Array.from({ length: 5 }, () =>
      t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 4 }] }, buyer.cookie),
    );
    const results = await Promise.all([...files.map((file) => apply(eventId, file)), ...buyers]);
    for (const result of results) expect([200, 409, 429]).toContain(result.status);

    const imported = (await ordersOf(eventId)).filter((one) => one.buyerId === null);
    expect(new Set(imported.map((one) => one.email)).size).toBe(imported.length);
    const [counts] = await t.db.select().from(event).where(eq(event.id, eventId));
    expect(counts!.sold + counts!.held).toBeLessThanOrEqual(40);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('answers other requests between the pieces of a large chunk, and still creates each row once', async () => {
    const { eventId } = await newEvent({ capacity: 5_000, types: [{ name: 'Standing', capacity: 5_000 }] });
    const guests = Array.from({ length: 10 }, (_, index) => ({ email: `crowd${index}@example.test`, quantity: '500' }));
    // /healthz over a real socket, as a load balancer asks it while the import runs.
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    let finished = false;
    const applying = apply(eventId, guests).then((answer) => {
      finished = true;
      return answer;
    });

    // Ordering, not time: a /healthz answered after some of the rows were written and before the
    // import answered. One transaction for the whole chunk shows none or all of them, never some.
    let answeredMidway = 0;
    while (!finished) {
      const [progress] = await t.db.select({ rows: count() }).from(importRow).where(eq(importRow.eventId, eventId));
      const health = await fetch(`${baseUrl}/healthz`);
      expect(health.status).toBe(200);
      if (!finished && progress!.rows > 0 && progress!.rows < guests.length) answeredMidway += 1;
    }

    expect((await applying).body.result).toMatchObject({ created: 10, tickets: 5_000 });
    expect(answeredMidway).toBeGreaterThan(0);
    expect((await apply(eventId, guests)).body.result).toMatchObject({ created: 0, skipped: 10 });
    expect(await ticketsOf(eventId)).toHaveLength(5_000);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('emails each new guest their tickets when asked to', async () => {
    const { eventId } = await newEvent();
    await apply(eventId, [{ name: 'Mia Mail', email: 'mia.mail@example.test', ticketType: 'Standing' }], { sendEmails: true });
    let message;
    for (let attempt = 0; attempt < 50 && !message; attempt += 1) {
      message = await t.lastMessageTo('mia.mail@example.test').catch(() => undefined);
      if (!message) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(message?.subject).toBeTruthy();
  });

  it('refuses a cancelled event, and admins of other organizations', async () => {
    const { eventId } = await newEvent();
    await t.db.update(event).set({ status: 'cancelled' }).where(eq(event.id, eventId));
    const cancelled = await apply(eventId, [{ email: 'a@example.test', ticketType: 'Standing' }]);
    expect(cancelled.body.error.status).toBe('failed-precondition');
    const other = await validate(eventId, [{ email: 'a@example.test' }], buyer.cookie);
    expect(other.body.error.status).toBe('not-found');
  });

  it('lets staff do nothing with imports', async () => {
    const { eventId, organizationId } = await newEvent();
    const staff = await t.signUp('Sam Staff');
    await addMember(t, organizationId, staff.user.id, 'staff');
    expect((await validate(eventId, [{ email: 'a@example.test' }], staff.cookie)).body.error.status).toBe('permission-denied');
  });
});

describe('the round trip', () => {
  it('reproduces an event’s attendee list in another event from its own export', async () => {
    const source = await newEvent({
      capacity: 100,
      types: [
        { name: 'Standing', capacity: 50 },
        { name: 'VIP', capacity: 10 },
      ],
    });
    // Two tickets for one person of one type: the export's ticket ids keep them apart.
    await apply(source.eventId, [
      { name: 'Ann Example', email: 'ann@example.test', ticketType: 'Standing', quantity: '2' },
      { name: 'Zoë "Zed" Müller, Jr.', email: 'zoe@example.test', ticketType: 'VIP' },
      { name: '=1+2', email: 'formula@example.test', ticketType: 'Standing' },
    ]);
    const target = await newEvent({
      capacity: 100,
      types: [
        { name: 'Standing', capacity: 50 },
        { name: 'VIP', capacity: 10 },
      ],
    });

    const exportOf = async (eventId: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/files/events/${eventId}/exports/attendees.csv?excel=1&locale=de`,
        headers: { cookie: owner.cookie },
      });
      const parsed = Papa.parse<Record<string, string>>(response.body.replace(/^\uFEFF/, ''), {
        header: true,
        skipEmptyLines: true,
      });
      expect(parsed.errors).toEqual([]);
      return parsed.data;
    };
    const exported = await exportOf(source.eventId);
    expect(exported).toHaveLength(4);
    const unneutralize = (value: string) => value.replace(/^'(?=[=+\-@\t\r])/, '');
    const { body } = await apply(
      target.eventId,
      exported.map((row) => ({
        guestId: row.ticket_id,
        name: unneutralize(row.holder_name!),
        email: row.holder_email,
        ticketType: row.ticket_type,
      })),
    );
    expect(body.result).toMatchObject({ created: 4, tickets: 4, invalid: 0 });

    const shape = (rows: Record<string, string>[]) =>
      rows
        .map((row) => [row.ticket_type, row.holder_name, row.holder_email, row.ticket_status, row.price_minor].join('|'))
        .sort();
    expect(shape(await exportOf(target.eventId))).toEqual(shape(exported));
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
