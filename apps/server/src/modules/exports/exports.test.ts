import { randomUUID } from 'node:crypto';
import { applyImport } from '@admit/shared/csv';
import { createCode } from '@admit/shared/codes';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { createQuestion } from '@admit/shared/questions';
import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { readCsvWithPython } from '../../testing/python-csv';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { checkIn } from '../checkin/schema';
import { ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let staff: Awaited<ReturnType<TestApp['signUp']>>;
let buyer: Awaited<ReturnType<TestApp['signUp']>>;
let eventId: string;
let slug: string;
let seatedId: string;
let paidOrderId: string;

async function importGuests(cookie: string, rows: Record<string, unknown>[], forEvent = eventId) {
  const response = await t.call(
    applyImport,
    { eventId: forEvent, rows: rows.map((row, index) => ({ line: index + 2, ...row })) },
    cookie,
  );
  if (response.status !== 200 || response.body.result.invalid > 0)
    throw new Error(`import failed: ${JSON.stringify(response.body).slice(0, 500)}`);
  return response.body.result;
}

async function download(path: string, cookie?: string) {
  const response = await t.app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  return { status: response.statusCode, headers: response.headers, raw: response.rawPayload, text: response.body };
}

/** The records of a CSV answer, with the header's names as keys. */
function recordsOf(text: string, delimiter = ',') {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    delimiter,
    skipEmptyLines: true,
  });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

beforeAll(async () => {
  t = await createTestApp();
  [owner, staff, buyer] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Sam Staff'), t.signUp('Bea Buyer')]);
  const published = await createPublishedEvent(t, owner.cookie, {
    capacity: 3_000,
    ticketTypes: [
      { name: 'Standing', capacity: 2_000, maxPerOrder: 10 },
      { name: 'Seated', capacity: 100, price: 1550 },
    ],
  });
  ({ eventId, slug } = published);
  seatedId = published.ticketTypeIds[1]!;
  await addMember(t, published.organizationId, staff.user.id, 'staff');

  const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: seatedId, quantity: 2 }] }, buyer.cookie);
  paidOrderId = ordered.body.result.orderId;
  const started = await t.call(startPayment, { orderId: paidOrderId }, buyer.cookie);
  await t.call(
    sandboxConfirm,
    { clientSecret: started.body.result.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
    buyer.cookie,
  );
  await t.call(confirmPayment, { orderId: paidOrderId }, buyer.cookie);

  await importGuests(owner.cookie, [
    { name: '=HYPERLINK("http://evil.test","click")', email: 'formula@example.test', ticketType: 'Standing' },
    { name: '+49 30 1234', email: 'plus@example.test', ticketType: 'Standing' },
    { name: '-2+3', email: 'minus@example.test', ticketType: 'Standing' },
    { name: '@SUM(A1)', email: 'at@example.test', ticketType: 'Standing' },
    { name: 'Tabbed', email: 'tab@example.test', ticketType: 'Standing' },
    { name: 'Returned', email: 'cr@example.test', ticketType: 'Standing' },
    { name: 'Zoë', email: 'zoe@example.test', ticketType: 'Standing' },
  ]);
  // The import tidies the spaces around names; a holder renamed later could still start with one.
  await t.db.update(ticket).set({ holderName: '\tTabbed' }).where(eq(ticket.holderEmail, 'tab@example.test'));
  await t.db.update(ticket).set({ holderName: '\rReturned' }).where(eq(ticket.holderEmail, 'cr@example.test'));
  await t.db
    .update(ticket)
    .set({ holderName: 'Zoë "Zed" Müller, Jr.\nsecond line' })
    .where(eq(ticket.holderEmail, 'zoe@example.test'));
});
afterAll(() => t?.close());

const path = (kind: string, query = '') => `/files/events/${eventId}/exports/${kind}.csv${query}`;

describe('the attendee export', () => {
  it('is UTF-8 CSV with a header row, CRLF line ends, commas and no byte order mark by default', async () => {
    const response = await download(path('attendees'), owner.cookie);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.raw.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(response.text.split('\r\n')[0]).toBe(
      'ticket_id,ticket_type,holder_name,holder_email,ticket_status,order_reference,order_id,order_status,buyer_name,buyer_email,price_minor,price,currency,discount_minor,code,issued_at,issued_at_local,checked_in_at,checked_in_at_local,time_zone',
    );
    expect(recordsOf(response.text)).toHaveLength(9);
    expect(response.headers['x-row-count']).toBe('9');
  });

  it('neutralises every cell that starts with =, +, -, @, a tab or a carriage return', async () => {
    const records = recordsOf((await download(path('attendees'), owner.cookie)).text);
    const names = new Map(records.map((record) => [record.holder_email, record.holder_name]));
    expect(names.get('formula@example.test')).toBe(`'=HYPERLINK("http://evil.test","click")`);
    expect(names.get('plus@example.test')).toBe(`'+49 30 1234`);
    expect(names.get('minus@example.test')).toBe(`'-2+3`);
    expect(names.get('at@example.test')).toBe(`'@SUM(A1)`);
    expect(names.get('tab@example.test')).toBe(`'\tTabbed`);
    expect(names.get('cr@example.test')).toBe(`'\rReturned`);
    // Quotes, commas and newlines inside a cell survive quoting, unchanged.
    expect(names.get('zoe@example.test')).toBe('Zoë "Zed" Müller, Jr.\nsecond line');
  });

  it('writes timestamps as ISO 8601 with their offset and again on the clock of the event', async () => {
    const records = recordsOf((await download(path('attendees'), owner.cookie)).text);
    const [rows] = [records.filter((record) => record.holder_email === 'plus@example.test')];
    const issued = rows[0]!.issued_at!;
    expect(issued).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const berlin = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(issued));
    expect(rows[0]!.issued_at_local).toBe(berlin);
    expect(rows[0]!.time_zone).toBe('Europe/Berlin');
    expect(rows[0]!.checked_in_at).toBe('');
  });

  it('gives money in minor units and formatted for the reader, in the order and price columns', async () => {
    const records = recordsOf((await download(path('attendees', '?locale=en'), owner.cookie)).text);
    const seated = records.filter((record) => record.order_id === paidOrderId);
    expect(seated).toHaveLength(2);
    expect(seated[0]).toMatchObject({ ticket_type: 'Seated', price_minor: '1550', price: '€15.50', currency: 'EUR' });
    expect(seated[0]!.order_status).toBe('paid');
  });

  it('in Excel form for a German reader starts with a byte order mark and separates cells with semicolons', async () => {
    const response = await download(path('attendees', '?excel=1&locale=de'), owner.cookie);
    expect(response.raw.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(response.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^ticket_id;ticket_type;holder_name;/);
    const seated = recordsOf(response.text, ';').find((record) => record.order_id === paidOrderId);
    expect(seated!.price).toBe('15,50\u00a0€');
  });

  it('in Excel form for an English reader keeps commas (its decimals use a point)', async () => {
    const response = await download(path('attendees', '?excel=1&locale=en'), owner.cookie);
    expect(response.raw.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(response.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^ticket_id,ticket_type,/);
  });

  it('names the file after the event slug, the list and the day', async () => {
    const response = await download(path('attendees'), owner.cookie);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="${slug}-attendees-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
  });

  it('gives staff the attendee names and check-in times, without emails or money', async () => {
    const response = await download(path('attendees'), staff.cookie);
    expect(response.status).toBe(200);
    expect(response.text.split('\r\n')[0]).toBe(
      'ticket_id,ticket_type,holder_name,ticket_status,checked_in_at,checked_in_at_local,time_zone',
    );
    expect(response.text).not.toContain('@example.test');
  });

  it('refuses staff the orders and the check-in log, and outsiders everything', async () => {
    expect((await download(path('orders'), staff.cookie)).status).toBe(403);
    expect((await download(path('check-ins'), staff.cookie)).status).toBe(403);
    expect((await download(path('attendees'), buyer.cookie)).status).toBe(404);
    expect((await download(path('attendees'))).status).toBe(401);
    expect((await download(path('passwords'), owner.cookie)).status).toBe(404);
    expect((await download(path('attendees', '?excel=maybe'), owner.cookie)).status).toBe(400);
    expect((await download(`/files/events/${'x'.repeat(100)}/exports/attendees.csv`, owner.cookie)).status).toBe(404);
  });

  it('reads past the first page of 1,000 rows with each ticket exactly once, even when many share a time', async () => {
    const { eventId: bigEventId } = await createPublishedEvent(t, owner.cookie, {
      capacity: 2_500,
      ticketTypes: [{ name: 'Standing', capacity: 2_500 }],
    });
    // One row of 1,000 tickets: all made in one statement, with one creation time.
    await importGuests(owner.cookie, [{ name: 'Big Group', email: 'group@example.test', quantity: '1000' }], bigEventId);
    const guests = Array.from({ length: 1_234 }, (_, index) => ({ name: `Guest ${index}`, email: `guest${index}@example.test` }));
    for (let start = 0; start < guests.length; start += 500)
      await importGuests(owner.cookie, guests.slice(start, start + 500), bigEventId);
    const response = await download(`/files/events/${bigEventId}/exports/attendees.csv`, owner.cookie);
    expect(response.status).toBe(200);
    const records = recordsOf(response.text);
    expect(records).toHaveLength(2_234);
    expect(new Set(records.map((record) => record.ticket_id)).size).toBe(2_234);
  });
});

describe('the orders export', () => {
  it('has one row per order with its ticket count, totals in minor units and formatted', async () => {
    const records = recordsOf((await download(path('orders', '?locale=de'), owner.cookie)).text);
    expect(records).toHaveLength(8);
    const paid = records.find((record) => record.order_id === paidOrderId)!;
    expect(paid).toMatchObject({ status: 'paid', tickets: '2', total_minor: '3100', total: '31,00\u00a0€', refunded_minor: '0' });
    const comp = records.find((record) => record.buyer_email === 'plus@example.test')!;
    expect(comp).toMatchObject({ buyer_name: `'+49 30 1234`, total_minor: '0', payment_provider: 'import', tickets: '1' });
    expect(comp.created_at).toMatch(/Z$/);
  });
});

describe('the check-in log export', () => {
  it('lists every scan with its result, device and ticket (empty until the first scan)', async () => {
    const empty = await download(path('check-ins'), owner.cookie);
    expect(empty.text).toBe(
      'check_in_id,scanned_at,scanned_at_local,time_zone,result,device,ticket_id,ticket_type,holder_name\r\n',
    );
    const [first] = await t.db.select().from(ticket).where(eq(ticket.eventId, eventId)).limit(1);
    const scannedAt = new Date('2030-01-10T18:02:00Z');
    await t.db.insert(checkIn).values([
      {
        id: randomUUID(),
        eventId,
        ticketId: first!.id,
        device: 'Door 2',
        scannedAt,
        result: 'accepted',
        idempotencyKey: randomUUID(),
      },
      { id: randomUUID(), eventId, ticketId: null, device: '@door', scannedAt, result: 'unknown', idempotencyKey: randomUUID() },
    ]);
    // As the scanner records an admission: the ticket is checked in with it.
    await t.db.update(ticket).set({ checkedInAt: scannedAt, checkedInDevice: 'Door 2' }).where(eq(ticket.id, first!.id));
    const records = recordsOf((await download(path('check-ins'), owner.cookie)).text);
    expect(records).toHaveLength(2);
    expect(records.find((record) => record.result === 'accepted')).toMatchObject({
      scanned_at: '2030-01-10T18:02:00Z',
      scanned_at_local: '2030-01-10 19:02:00',
      device: 'Door 2',
      ticket_id: first!.id,
    });
    expect(records.find((record) => record.result === 'unknown')).toMatchObject({ device: `'@door`, ticket_id: '' });
  });
});

describe('values longer than any entrance allows, stored before the entrances had limits', () => {
  it('are exported whole up to 10,000 characters and cut there with an ellipsis, in every list', async () => {
    const { eventId: longEventId } = await createPublishedEvent(t, owner.cookie, {
      capacity: 10,
      ticketTypes: [{ name: 'Standing', capacity: 10 }],
    });
    await importGuests(
      owner.cookie,
      [
        { name: 'Mallory', email: 'mallory@example.test', quantity: '3' },
        { name: 'Tess', email: 'tess@example.test' },
      ],
      longEventId,
    );
    const longName = 'Mallory'.repeat(128_572);
    const longestAccepted = 'T'.repeat(10_000);
    const [malloryTicket] = await t.db
      .update(ticket)
      .set({ holderName: longName })
      .where(eq(ticket.holderEmail, 'mallory@example.test'))
      .returning();
    await t.db.update(ticket).set({ holderName: longestAccepted }).where(eq(ticket.holderEmail, 'tess@example.test'));
    await t.db.update(order).set({ buyerName: longName }).where(eq(order.eventId, longEventId));
    await t.db.insert(checkIn).values({
      id: randomUUID(),
      eventId: longEventId,
      ticketId: malloryTicket!.id,
      device: 'D'.repeat(900_000),
      scannedAt: new Date('2030-01-10T18:05:00Z'),
      result: 'accepted',
      idempotencyKey: randomUUID(),
    });
    // As the scanner records an admission: the ticket is checked in with it.
    await t.db
      .update(ticket)
      .set({ checkedInAt: new Date('2030-01-10T18:05:00Z') })
      .where(eq(ticket.id, malloryTicket!.id));
    const exported = (kind: string) => download(`/files/events/${longEventId}/exports/${kind}.csv`, owner.cookie);
    const cut = `${longName.slice(0, 9_999)}…`;

    const attendees = await exported('attendees');
    const holders = recordsOf(attendees.text);
    expect(
      holders.filter((record) => record.holder_email === 'mallory@example.test').map((record) => record.holder_name),
    ).toEqual([cut, cut, cut]);
    expect(holders.find((record) => record.holder_email === 'tess@example.test')!.holder_name).toBe(longestAccepted);
    expect(holders.every((record) => record.buyer_name === cut)).toBe(true);
    // Four tickets, each with a holder's and a buyer's name of at most 10,000 characters.
    expect(attendees.raw.length).toBeLessThan(90_000);

    const orders = recordsOf((await exported('orders')).text);
    expect(orders.map((record) => record.buyer_name)).toEqual([cut, cut]);
    const [scan] = recordsOf((await exported('check-ins')).text);
    expect(scan).toMatchObject({ device: `${'D'.repeat(9_999)}…`, holder_name: cut });
  });
});

describe('cells with line breaks, typed by a buyer, an organizer or a device', () => {
  /** Whether a spreadsheet would run this line as a formula: = + - @ or a tab first, in any width. */
  const runsAsFormula = (line: string) => {
    const first = line.codePointAt(0);
    return first !== undefined && /^[=+\-@\t]/.test(String.fromCodePoint(first).normalize('NFKC'));
  };
  const linesOf = (cell: string) => cell.split(/\r\n|\r|\n/);

  it('read back as one row per attendee, order, scan and code in papaparse and in Python, none of whose lines a spreadsheet would run', async () => {
    const {
      eventId: hostileId,
      organizationId,
      ticketTypeIds,
    } = await createPublishedEvent(t, owner.cookie, { capacity: 10, ticketTypes: [{ name: 'Standing', capacity: 10 }] });
    await addMember(t, organizationId, staff.user.id, 'staff');
    const made = await t.call(
      createQuestion,
      { eventId: hostileId, kind: 'longText', label: 'Anything else?', onScanner: true },
      owner.cookie,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const questionId = made.body.result.questionId as string;
    // What a buyer can send through checkout: a long answer keeps its line feeds.
    const answers = ['<b>x</b>\n=1+1\n@SUM(1)', 'fine\n-2+3\n+SUM(1)\n＝1\n﹫x', 'plain answer'];
    const placed = await t.call(
      createOrder,
      {
        eventId: hostileId,
        lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 3, answers: answers.map((text) => ({ [questionId]: text })) }],
      },
      buyer.cookie,
    );
    expect(placed.body.result, JSON.stringify(placed.body)).toMatchObject({ status: 'paid', ticketCount: 3 });
    const hostileOrderId = placed.body.result.orderId as string;
    expect(
      (
        await t.call(
          createCode,
          {
            eventId: hostileId,
            code: 'MULTILINE',
            ticketTypeIds: [ticketTypeIds[0]!],
            discount: { kind: 'percent', percent: 10 },
          },
          owner.cookie,
        )
      ).status,
    ).toBe(200);
    // What other entrances (or rows from before their limits) may hold: bare CRs and LFs in names.
    const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, hostileOrderId));
    await t.db.update(ticket).set({ holderName: 'Ann\r=1+1\r\n@SUM(1)' }).where(eq(ticket.id, tickets[0]!.id));
    await t.db.update(ticket).set({ holderName: 'Ben\n\t-1' }).where(eq(ticket.id, tickets[1]!.id));
    await t.db.update(order).set({ buyerName: 'Bea\r+1\n=2' }).where(eq(order.id, hostileOrderId));
    await t.db
      .update(ticketType)
      .set({ name: 'Standing\n=HYPERLINK("http://evil.test")' })
      .where(eq(ticketType.id, ticketTypeIds[0]!));
    const scannedAt = new Date('2030-01-10T18:05:00Z');
    await t.db.insert(checkIn).values({
      id: randomUUID(),
      eventId: hostileId,
      ticketId: tickets[0]!.id,
      device: 'Door\r-1\n@x',
      scannedAt,
      result: 'accepted',
      idempotencyKey: randomUUID(),
    });
    // As the scanner records an admission: the ticket is checked in with it.
    await t.db.update(ticket).set({ checkedInAt: scannedAt }).where(eq(ticket.id, tickets[0]!.id));

    const downloads = [
      ...['attendees', 'orders', 'check-ins', 'codes'].flatMap((kind) => [
        { kind, query: '', delimiter: ',', cookie: owner.cookie },
        { kind, query: '?excel=1&locale=de', delimiter: ';', cookie: owner.cookie },
      ]),
      { kind: 'attendees', query: '', delimiter: ',', cookie: staff.cookie },
    ];
    for (const { kind, query, delimiter, cookie } of downloads) {
      const response = await download(`/files/events/${hostileId}/exports/${kind}.csv${query}`, cookie);
      expect(response.status).toBe(200);
      const rows = Number(response.headers['x-row-count']);
      expect(rows).toBeGreaterThan(0);
      const papa = Papa.parse<string[]>(response.text.replace(/^\uFEFF/, ''), { delimiter, skipEmptyLines: true });
      expect(papa.errors, `${kind}${query}`).toEqual([]);
      const python = readCsvWithPython(response.text, delimiter);
      for (const records of [papa.data, python]) {
        const [header, ...body] = records;
        expect(body, `${kind}${query}`).toHaveLength(rows);
        expect(new Set(body.map((record) => record.length)), `${kind}${query}`).toEqual(new Set([header!.length]));
        const live = body.flat().filter((cell) => linesOf(cell).some(runsAsFormula));
        expect(live, `${kind}${query}`).toEqual([]);
      }
      expect(python, `${kind}${query}`).toEqual(papa.data);
    }

    // The answers themselves are kept, line by line, each formula shown as text.
    const attendees = recordsOf((await download(`/files/events/${hostileId}/exports/attendees.csv`, owner.cookie)).text);
    expect(attendees.map((record) => record['Anything else?']).sort()).toEqual(
      ["<b>x</b>\n'=1+1\n'@SUM(1)", "fine\n'-2+3\n'+SUM(1)\n'＝1\n'﹫x", 'plain answer'].sort(),
    );
  });
});

it('leaves the data invariants holding', async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
