import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  eventMessages,
  orderMessages,
  previewAttendeeMessage,
  sendAttendeeMessage,
  type AttendeeMessageDraft,
} from '@admit/shared/attendee-messages';
import { setAccountLanguage } from '@admit/shared/account';
import { scanTicket } from '@admit/shared/checkin';
import { applyImport } from '@admit/shared/csv';
import { createOrder } from '@admit/shared/orders';
import { and, count, eq, like } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProcess } from '../../../../../deploy/processes';
import { jobDefinitions } from '../../app';
import { createJobQueue } from '../../platform/jobs/job-queue';
import type { JobServices } from '../../platform/jobs/job-services';
import { outboxMessage } from '../../platform/mail/schema';
import { createServices } from '../../services';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { watch } from '../../testing/live-watch';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket } from '../tickets/schema';
import { attendeeMessage, attendeeMessageRecipient } from './schema';

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let baseUrl: string;
let owner: Person;
let greta: Person;

// These tests write to a thousand imported guests at once; the limits of emails to guests who never
// bought anything have tests of their own (guest-mail.test.ts).
const roomyGuestMail = { GUEST_MAIL_NEW_PER_HOUR: '100000', GUEST_MAIL_NEW_PER_DAY: '100000' };

beforeAll(async () => {
  t = await createTestApp({ env: roomyGuestMail });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, greta] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Greta Gast')]);
  await t.call(setAccountLanguage, { locale: 'de' }, greta.cookie);
});
afterAll(() => t?.close());

const draft = (eventId: string, overrides: Partial<AttendeeMessageDraft> = {}): AttendeeMessageDraft => ({
  eventId,
  subject: 'Doors open at 18:30',
  body: 'Hello everyone,\n\nthe doors open half an hour earlier.\nBring your ticket.',
  audience: { ticketTypeIds: [], checkIn: 'any' },
  ...overrides,
});

const giveGuests = (eventId: string, guests: { name: string; email: string; ticketType: string }[]) =>
  giveGuestsOn(t, owner.cookie, eventId, guests);

const emailsTo = (to: string) => t.db.select().from(outboxMessage).where(eq(outboxMessage.to, to));

async function eventWithHolders() {
  const { organizationId, eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [
      { name: 'Standing', capacity: 50 },
      { name: 'VIP', capacity: 10 },
    ],
  });
  // Greta buys two free tickets (both hers): one person, one email.
  const { status, body } = await t.call(
    createOrder,
    { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }] },
    greta.cookie,
  );
  expect(status).toBe(200);
  const suffix = randomUUID().slice(0, 8);
  const guests = [
    { name: 'Ann Guest', email: `ann-${suffix}@example.test`, ticketType: 'Standing' },
    { name: 'Vic Vip', email: `vic-${suffix}@example.test`, ticketType: 'VIP' },
  ];
  await giveGuests(eventId, guests);
  return { organizationId, eventId, ticketTypeIds, gretaOrderId: body.result.orderId, guests };
}

describe('messages to attendees', () => {
  it('sends each ticket holder the message once, in their language, with the event and the organizer', async () => {
    const { eventId, guests } = await eventWithHolders();
    const idempotencyKey = randomUUID();
    const { status, body } = await t.call(sendAttendeeMessage, { ...draft(eventId), idempotencyKey }, owner.cookie);
    expect(status).toBe(200);
    expect(body.result.recipients).toBe(3);
    await t.settleJobs();

    const gretasEmails = (await emailsTo(greta.email)).filter((email) => email.subject === 'Doors open at 18:30');
    expect(gretasEmails).toHaveLength(1);
    const german = gretasEmails[0]!;
    expect(german.text).toContain('Night Owls hat den Ticketinhabern von Jazz night');
    expect(german.text).toContain('the doors open half an hour earlier.');
    expect(german.html).toContain('lang="de"');
    for (const guest of guests) {
      const [english] = await emailsTo(guest.email);
      expect(english?.subject).toBe('Doors open at 18:30');
      expect(english?.text).toContain('Night Owls wrote to the ticket holders of Jazz night');
      expect(english?.text).toContain(`Hello ${guest.name},`);
    }

    const [message] = await t.db.select().from(attendeeMessage).where(eq(attendeeMessage.eventId, eventId));
    expect(message).toMatchObject({ recipients: 3, sent: 3, unreachable: 0 });
    expect(message!.finishedAt).not.toBeNull();

    // The same send again (a double click, a retry), also twice at once: the same message, nobody written to twice.
    const again = await Promise.all(
      [1, 2].map(() => t.call(sendAttendeeMessage, { ...draft(eventId), idempotencyKey }, owner.cookie)),
    );
    expect(again.map((one) => one.body.result.messageId)).toEqual([body.result.messageId, body.result.messageId]);
    const twins = randomUUID();
    const atOnce = await Promise.all(
      [1, 2].map(() =>
        t.call(sendAttendeeMessage, { ...draft(eventId, { subject: 'Twice at once' }), idempotencyKey: twins }, owner.cookie),
      ),
    );
    expect(atOnce.map((one) => one.status)).toEqual([200, 200]);
    expect(new Set(atOnce.map((one) => one.body.result.messageId)).size).toBe(1);
    await t.settleJobs();
    expect((await emailsTo(guests[0]!.email)).map((email) => email.subject).sort()).toEqual([
      'Doors open at 18:30',
      'Twice at once',
    ]);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('reaches only the chosen ticket types, and those let in or not yet', async () => {
    const { eventId, ticketTypeIds } = await eventWithHolders();
    const preview = (audience: AttendeeMessageDraft['audience']) =>
      t.call(previewAttendeeMessage, draft(eventId, { audience }), owner.cookie);

    expect((await preview({ ticketTypeIds: [ticketTypeIds[1]!], checkIn: 'any' })).body.result.recipients).toBe(1);
    expect((await preview({ ticketTypeIds: [ticketTypeIds[0]!], checkIn: 'any' })).body.result.recipients).toBe(2);

    const [vipTicket] = await t.db
      .select()
      .from(ticket)
      .where(and(eq(ticket.eventId, eventId), eq(ticket.ticketTypeId, ticketTypeIds[1]!)));
    const scan = await t.call(
      scanTicket,
      { eventId, code: vipTicket!.code, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(scan.body.result.result).toBe('accepted');
    expect((await preview({ ticketTypeIds: [], checkIn: 'checked-in' })).body.result.recipients).toBe(1);
    expect((await preview({ ticketTypeIds: [], checkIn: 'not-checked-in' })).body.result.recipients).toBe(2);

    // The preview is the email the admin would get, in their language, and sends nothing.
    const { body } = await preview({ ticketTypeIds: [], checkIn: 'any' });
    expect(body.result.email.subject).toBe('Doors open at 18:30');
    expect(body.result.email.text).toContain('Hello Olga Owner,');
    expect(await emailsTo(owner.email).then((emails) => emails.filter((one) => one.subject === 'Doors open at 18:30'))).toEqual(
      [],
    );

    const sent = await t.call(
      sendAttendeeMessage,
      { ...draft(eventId, { audience: { ticketTypeIds: [], checkIn: 'checked-in' } }), idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(sent.body.result.recipients).toBe(1);
    await t.settleJobs();
    const recipients = await t.db
      .select()
      .from(attendeeMessageRecipient)
      .where(eq(attendeeMessageRecipient.messageId, sent.body.result.messageId));
    expect(recipients.map((one) => [one.email, one.status])).toEqual([[vipTicket!.holderEmail, 'sent']]);
  });

  it('refuses staff, another event’s ticket types, an audience nobody is in, and bad input, with clear errors', async () => {
    const { organizationId, eventId } = await eventWithHolders();
    const staff = await t.signUp('Sam Staff');
    await addMember(t, organizationId, staff.user.id, 'staff');
    const other = await createPublishedEvent(t, owner.cookie);
    const key = { idempotencyKey: randomUUID() };

    const byStaff = await t.call(sendAttendeeMessage, { ...draft(eventId), ...key }, staff.cookie);
    expect([byStaff.status, byStaff.body.error.status]).toEqual([403, 'permission-denied']);

    const foreign = await t.call(
      previewAttendeeMessage,
      draft(eventId, { audience: { ticketTypeIds: other.ticketTypeIds, checkIn: 'any' } }),
      owner.cookie,
    );
    expect([foreign.status, foreign.body.error.details.fields[0].path]).toEqual([400, 'audience.ticketTypeIds']);

    const nobody = await t.call(sendAttendeeMessage, { ...draft(other.eventId), ...key }, owner.cookie);
    expect([nobody.status, nobody.body.error.details.reason]).toEqual([400, 'no-recipients']);

    for (const bad of [
      { subject: '   ' },
      { subject: 'Two\nlines' },
      { body: 'x'.repeat(5_001) },
      { body: 'a NUL \u0000 here' },
    ]) {
      const { status, body } = await t.call(sendAttendeeMessage, { ...draft(eventId, bad), ...key }, owner.cookie);
      expect(status, JSON.stringify(bad)).toBe(400);
      expect(body.error.status).toBe('invalid-argument');
      expect(JSON.stringify(body)).not.toMatch(/insert|select|at .*\.ts/i);
    }
    const [{ messages }] = (await t.db
      .select({ messages: count() })
      .from(attendeeMessage)
      .where(eq(attendeeMessage.eventId, eventId))) as [{ messages: number }];
    expect(messages).toBe(0);
  });

  it('shows its buyer, live, the messages that reached their order, and them only', async () => {
    const { eventId, gretaOrderId } = await eventWithHolders();
    const watched = await watch(baseUrl, orderMessages.name, { eventId, orderId: gretaOrderId }, greta.cookie);
    try {
      expect(watched.rows()).toEqual([]);
      await t.call(
        sendAttendeeMessage,
        { ...draft(eventId, { subject: 'Parking' }), idempotencyKey: randomUUID() },
        owner.cookie,
      );
      await expect
        .poll(() => watched.rows().map((row) => [row.subject, row.organizationName]))
        .toEqual([['Parking', 'Night Owls']]);
    } finally {
      watched.close();
    }
    // Someone else's order is not theirs to read.
    await expect(watch(baseUrl, orderMessages.name, { eventId, orderId: gretaOrderId }, owner.cookie)).rejects.toThrow(
      'not-found',
    );
    const admins = await watch(baseUrl, eventMessages.name, { eventId }, owner.cookie);
    await expect.poll(() => admins.rows().map((row) => [row.subject, row.sent, row.recipients])).toEqual([['Parking', 3, 3]]);
    admins.close();
  });
});

describe('a message to a thousand holders', () => {
  const thousandGuests = () =>
    Array.from({ length: 1_000 }, (_, index) => ({
      name: `Guest ${index}`,
      email: `guest-${index}-${randomUUID().slice(0, 6)}@example.test`,
      ticketType: 'Standing',
    }));

  const sentPer = async (subject: string) =>
    t.db
      .select({ to: outboxMessage.to, copies: count() })
      .from(outboxMessage)
      .where(and(eq(outboxMessage.subject, subject), like(outboxMessage.to, 'guest-%')))
      .groupBy(outboxMessage.to);

  it('is sent once to each, also when every batch is tried again', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie, { capacity: 1_000, ticketTypes: [{ capacity: 1_000 }] });
    await giveGuests(eventId, thousandGuests());
    const subject = `Programme ${randomUUID().slice(0, 6)}`;
    const { body } = await t.call(
      sendAttendeeMessage,
      { ...draft(eventId, { subject }), idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(body.result.recipients).toBe(1_000);
    await t.settleJobs(120_000);
    // Every batch run again, as after a worker died right after its last email.
    const { sendMessageBatchJob } = await import('./send-message');
    await t.jobs.enqueueMany(
      t.db,
      sendMessageBatchJob,
      Array.from({ length: 100 }, (_, batch) => ({ messageId: body.result.messageId, batch })),
    );
    await t.settleJobs(60_000);
    const sent = await sentPer(subject);
    expect(sent).toHaveLength(1_000);
    expect(sent.every((one) => one.copies === 1)).toBe(true);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  }, 240_000);

  // A real worker process killed mid-send (PostgreSQL: the embedded database belongs to one process).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'is sent once to each across a worker killed mid-send and started again',
    async () => {
      // A database of its own, whose jobs no test app's workers take: only the worker processes.
      const apart = await createTestApp({ env: { JOB_WORKERS: 'off', ...roomyGuestMail } });
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
      try {
        const organizer = await apart.signUp('Olga Owner');
        const { eventId } = await createPublishedEvent(apart, organizer.cookie, {
          capacity: 1_000,
          ticketTypes: [{ capacity: 1_000 }],
        });
        await giveGuestsOn(apart, organizer.cookie, eventId, thousandGuests());
        const subject = `Crash ${randomUUID().slice(0, 6)}`;
        const { body } = await apart.call(
          sendAttendeeMessage,
          { ...draft(eventId, { subject }), idempotencyKey: randomUUID() },
          organizer.cookie,
        );
        const { messageId } = body.result;
        const env = {
          ...process.env,
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          DATABASE_URL: apart.database.url!,
          AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
          PUBLIC_URL: 'http://localhost:3000',
          DATA_DIR: apart.config.DATA_DIR,
        };
        const worker = await startProcess({
          name: 'worker',
          command: process.execPath,
          args: ['scripts/worker.mjs'],
          env,
          cwd: root,
          readyWhen: /worker running/,
        });
        const sentSoFar = async () =>
          (
            await apart.db
              .select({ sent: count() })
              .from(attendeeMessageRecipient)
              .where(and(eq(attendeeMessageRecipient.messageId, messageId), eq(attendeeMessageRecipient.status, 'sent')))
          )[0]!.sent;
        await expect.poll(sentSoFar, { timeout: 60_000, interval: 50 }).toBeGreaterThan(100);
        await worker.stop('SIGKILL');
        const before = await sentSoFar();
        expect(before).toBeLessThan(1_000);

        // Started again: here, with quick maintenance, so the killed tries are found soon.
        const restarted = await createJobQueue(apart.database, pino({ level: 'silent' }), jobDefinitions as never, {
          pollingIntervalSeconds: 0.5,
          maintenanceIntervalSeconds: 1,
        });
        const { payments, mailer, storage } = await createServices(apart.config, apart.database);
        const services: JobServices = {
          db: apart.db,
          mailer,
          publicUrl: 'http://localhost:3000',
          payments,
          config: apart.config,
          publish: () => {},
          jobs: restarted,
          storage,
        };
        await restarted.work(jobDefinitions as never, services);
        try {
          await expect
            .poll(
              async () => (await apart.db.select().from(attendeeMessage).where(eq(attendeeMessage.id, messageId)))[0]?.finishedAt,
              { timeout: 120_000, interval: 500 },
            )
            .not.toBeNull();
        } finally {
          await restarted.stop();
        }
        const sent = await apart.db
          .select({ to: outboxMessage.to, copies: count() })
          .from(outboxMessage)
          .where(eq(outboxMessage.subject, subject))
          .groupBy(outboxMessage.to);
        expect(sent).toHaveLength(1_000);
        expect(sent.filter((one) => one.copies !== 1)).toEqual([]);
        expect(await dataInvariantViolations(apart.db)).toEqual([]);
      } finally {
        await apart.close();
      }
    },
    300_000,
  );
});

/** Guests given a ticket each from a guest list, as an organizer imports one (no emails). */
async function giveGuestsOn(
  app: TestApp,
  cookie: string,
  eventId: string,
  guests: { name: string; email: string; ticketType: string }[],
) {
  for (let start = 0; start < guests.length; start += 500) {
    const rows = guests.slice(start, start + 500).map((guest, index) => ({ line: start + index + 2, ...guest }));
    const { status, body } = await app.call(applyImport, { eventId, rows }, cookie);
    if (status !== 200) throw new Error(`guest list not applied: ${JSON.stringify(body)}`);
  }
}
