import { randomUUID } from 'node:crypto';
import { setAccountLanguage } from '@admit/shared/account';
import { orderMessages, sendChangeNotice } from '@admit/shared/attendee-messages';
import { applyImport } from '@admit/shared/csv';
import { updateEvent, type UpdateEventInput } from '@admit/shared/event-changes';
import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessage } from '../../platform/mail/schema';
import { addMember, createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { sendMessageBatchJob } from './send-message';

// Telling ticket holders that their event's time or place changed: the organizer chooses after
// saving; each holder gets one email in their language with what was and what is, and a calendar
// file whose SEQUENCE rose, and reads the notice again on their order.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let baseUrl: string;
let owner: Person;
let greta: Person;
let staff: Person;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, greta, staff] = await Promise.all([t.signUp('Olga Owner'), t.signUp('Greta Gast'), t.signUp('Sam Staff')]);
  await t.call(setAccountLanguage, { locale: 'de' }, greta.cookie);
});
afterAll(() => t?.close());

const fields = (eventId: string, overrides: Partial<UpdateEventInput> = {}): UpdateEventInput => ({
  eventId,
  title: 'Jazz night',
  description: '',
  venue: 'Club Blau',
  timeZone: 'Europe/Berlin',
  startsAtLocal: '2030-01-10T19:00',
  endsAtLocal: '2030-01-10T23:00',
  capacity: 100,
  currency: 'EUR',
  ...overrides,
});

const emailsTo = (to: string) => t.db.select().from(outboxMessage).where(eq(outboxMessage.to, to));
const calendarFileOf = (email: { attachments: { filename: string; contentBase64: string }[] }) => {
  const file = email.attachments.find((attachment) => attachment.filename.endsWith('.ics'));
  return file && Buffer.from(file.contentBase64, 'base64').toString('utf8');
};

/** A published event held by Greta (two tickets, German) and a guest (English). */
async function eventWithHolders() {
  const created = await createPublishedEvent(t, owner.cookie);
  const { body } = await t.call(
    createOrder,
    { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity: 2 }] },
    greta.cookie,
  );
  const guest = { name: 'Ann Guest', email: `ann-${randomUUID().slice(0, 8)}@example.test` };
  const imported = await t.call(
    applyImport,
    { eventId: created.eventId, rows: [{ line: 2, ...guest, ticketType: 'Standing' }] },
    owner.cookie,
  );
  expect(imported.status).toBe(200);
  return { ...created, gretaOrderId: body.result.orderId as string, guest };
}

describe('telling ticket holders about a new time or place', () => {
  it('emails each holder once, in their language, the old and new values and a calendar file whose SEQUENCE rose', async () => {
    const { eventId, slug, gretaOrderId, guest } = await eventWithHolders();
    const before = await t.app.inject({ url: `/files/events/${slug}/calendar.ics` });
    expect(before.body).toContain('SEQUENCE:0');

    const edit = await t.call(updateEvent, fields(eventId, { venue: 'Hall 2', startsAtLocal: '2030-01-10T20:00' }), owner.cookie);
    expect(edit.body.result).toEqual({
      changed: ['venue', 'startsAt'],
      change: { id: expect.any(String), holders: 2 },
    });
    // Saving tells nobody: the organizer chooses.
    await t.settleJobs();
    expect(await emailsTo(guest.email)).toHaveLength(0);
    // The file served from now on replaces the calendar's entry: same UID, higher SEQUENCE.
    const after = await t.app.inject({ url: `/files/events/${slug}/calendar.ics` });
    expect(after.body).toContain('SEQUENCE:1');
    expect(after.body).toContain('LOCATION:Hall 2');
    const uid = /UID:.*/.exec(before.body)![0];
    expect(after.body).toContain(uid);

    const changeId = edit.body.result.change!.id;
    const sent = await t.call(sendChangeNotice, { eventId, changeId }, owner.cookie);
    expect(sent.status).toBe(200);
    expect(sent.body.result.recipients).toBe(2);
    await t.settleJobs();

    const [english, ...moreEnglish] = await emailsTo(guest.email);
    expect(moreEnglish).toHaveLength(0);
    expect(english!.subject).toBe('Jazz night: the time or place has changed');
    expect(english!.text).toContain('Night Owls has changed the time or place of Jazz night. Your tickets stay valid.');
    expect(english!.text).toContain('Where: Hall 2 (was Club Blau)');
    expect(english!.text).toContain('Starts: Thursday, January 10, 2030 at 8:00');
    expect(english!.text).toContain('(was Thursday, January 10, 2030 at 7:00');
    expect(english!.text).not.toContain('Ends:');
    // The organizer's name heads the email, where Admit's wordmark was.
    expect(english!.html).toMatch(/<h1[^>]*>Night Owls<\/h1>/);
    const englishFile = calendarFileOf(english!)!;
    expect(englishFile).toContain('SEQUENCE:1');
    expect(englishFile).toContain(uid);
    expect(englishFile).toContain('DTSTART:20300110T190000Z');
    expect(englishFile).toContain('LOCATION:Hall 2');

    const gretas = (await emailsTo(greta.email)).filter((email) => email.subject.startsWith('Jazz night:'));
    expect(gretas).toHaveLength(1);
    expect(gretas[0]!.subject).toBe('Jazz night: Zeit oder Ort hat sich geändert');
    expect(gretas[0]!.text).toContain('Ort: Hall 2 (bisher Club Blau)');
    expect(gretas[0]!.html).toContain('lang="de"');
    expect(calendarFileOf(gretas[0]!)).toContain('SEQUENCE:1');

    // Asked again, and its batch run again as after a crash: the same notice, nobody written to twice.
    const again = await t.call(sendChangeNotice, { eventId, changeId }, owner.cookie);
    expect(again.body.result.messageId).toBe(sent.body.result.messageId);
    await t.jobs.enqueueMany(t.db, sendMessageBatchJob, [{ messageId: sent.body.result.messageId as string, batch: 0 }]);
    await t.settleJobs();
    expect(await emailsTo(guest.email)).toHaveLength(1);

    // Greta reads it on her order, with what was and what is.
    const watched = await watch(baseUrl, orderMessages.name, { eventId, orderId: gretaOrderId }, greta.cookie);
    try {
      await expect.poll(() => watched.rows().length, { timeout: 5_000 }).toBe(1);
      expect(watched.rows()[0]).toMatchObject({
        organizationName: 'Night Owls',
        change: {
          before: { venue: 'Club Blau', startsAt: '2030-01-10T18:00:00.000Z' },
          after: { venue: 'Hall 2', startsAt: '2030-01-10T19:00:00.000Z' },
          timeZone: 'Europe/Berlin',
        },
      });
    } finally {
      watched.close();
    }

    // A second move raises the SEQUENCE again.
    const second = await t.call(
      updateEvent,
      fields(eventId, { venue: 'Hall 3', startsAtLocal: '2030-01-10T20:00' }),
      owner.cookie,
    );
    expect(second.body.result.change).toEqual({ id: expect.any(String), holders: 2 });
    expect((await t.app.inject({ url: `/files/events/${slug}/calendar.ics` })).body).toContain('SEQUENCE:2');
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('offers no notice for a draft’s changes or for changes of other fields, and keeps the SEQUENCE', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const draft = await createEventAs(t, owner.cookie, organizationId);
    const moved = await t.call(updateEvent, fields(draft.eventId, { venue: 'Hall 2' }), owner.cookie);
    expect(moved.body.result).toEqual({ changed: ['venue'], change: null });

    const { eventId, slug } = await eventWithHolders();
    const renamed = await t.call(updateEvent, fields(eventId, { title: 'Jazz night, renamed' }), owner.cookie);
    expect(renamed.body.result).toEqual({ changed: ['title'], change: null });
    expect((await t.app.inject({ url: `/files/events/${slug}/calendar.ics` })).body).toContain('SEQUENCE:0');
  });

  it('lets only the event’s admins tell, and only about a change of that event', async () => {
    const first = await eventWithHolders();
    await addMember(t, first.organizationId, staff.user.id, 'staff');
    const edit = await t.call(updateEvent, fields(first.eventId, { venue: 'Hall 2' }), owner.cookie);
    const changeId = edit.body.result.change!.id;

    const byStaff = await t.call(sendChangeNotice, { eventId: first.eventId, changeId }, staff.cookie);
    expect(byStaff.body.error?.status).toBe('permission-denied');
    const byBuyer = await t.call(sendChangeNotice, { eventId: first.eventId, changeId }, greta.cookie);
    expect(byBuyer.body.error?.status).toBe('not-found');
    const other = await createPublishedEvent(t, owner.cookie);
    const elsewhere = await t.call(sendChangeNotice, { eventId: other.eventId, changeId }, owner.cookie);
    expect(elsewhere.status).toBe(404);
    const bad = await t.call(sendChangeNotice, { eventId: first.eventId, changeId: '' } as never, owner.cookie);
    expect(bad.status).toBe(400);
  });
});
