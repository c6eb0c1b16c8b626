import { randomUUID } from 'node:crypto';
import {
  guestMailAllowance,
  previewAttendeeMessage,
  sendAttendeeMessage,
  type AttendeeMessageDraft,
} from '@admit/shared/attendee-messages';
import { applyImport } from '@admit/shared/csv';
import { createOrder } from '@admit/shared/orders';
import { count, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessage } from '../../platform/mail/schema';
import { addMember, createOrgAs, createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { order } from '../orders/schema';
import { attendeeMessage, attendeeMessageRecipient } from './schema';

// Admit as a mail relay: a new account types in addresses (a guest list emailed its tickets,
// messages to those guests) across several events. With config.ts's defaults, an account or an
// organization with no paid order may email 100 such guests an hour and 300 a day; one that has
// sold a ticket 1,000 and 2,000 an hour (decision 0053).

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const guestsAt = (domain: string, from: number, howMany: number) =>
  Array.from({ length: howMany }, (_, index) => ({
    line: index + 2,
    name: `Guest ${from + index}`,
    email: `guest-${from + index}@${domain}`,
    ticketType: 'Standing',
  }));

const importGuests = (person: Person, eventId: string, rows: ReturnType<typeof guestsAt>, sendEmails: boolean) =>
  t.call(applyImport, { eventId, rows, sendEmails }, person.cookie);

const draft = (eventId: string): AttendeeMessageDraft => ({
  eventId,
  subject: 'Free drinks',
  body: 'Click here.',
  audience: { ticketTypeIds: [], checkIn: 'any' },
});
const send = (person: Person, eventId: string) =>
  t.call(sendAttendeeMessage, { ...draft(eventId), idempotencyKey: randomUUID() }, person.cookie);

/** Every email that left for the domain, once every queued job has run. */
async function mailedTo(domain: string) {
  await t.settleJobs();
  const [row] = await t.db
    .select({ count: count() })
    .from(outboxMessage)
    .where(like(outboxMessage.to, `%@${domain}`));
  return row!.count;
}

async function newcomerWithEvents(events: number, price = 0) {
  const newcomer = await t.signUp('Nora Newcomer');
  const { organizationId } = await createOrgAs(t, newcomer.cookie, 'Fresh Start');
  const eventIds: string[] = [];
  for (let index = 0; index < events; index += 1) {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, newcomer.cookie, {
      organizationId,
      capacity: 1_000,
      ticketTypes: [{ name: 'Standing', capacity: 1_000, price }],
    });
    eventIds.push(eventId);
    if (index === 0 && price > 0) eventTicketType.set(eventId, ticketTypeIds[0]!);
  }
  return { newcomer, organizationId, eventIds };
}
const eventTicketType = new Map<string, string>();

describe('emails to guests who never bought anything', () => {
  it('stops a new account from relaying mail through guest lists and messages across events, before anything is queued', async () => {
    const domain = `relay-${randomUUID().slice(0, 6)}.test`;
    const { newcomer, eventIds } = await newcomerWithEvents(3);
    const [first, second, third] = eventIds as [string, string, string];

    // 80 guests emailed their tickets: within the 100 an hour.
    const allowed = await importGuests(newcomer, first, guestsAt(domain, 0, 80), true);
    expect(allowed.status).toBe(200);
    expect(allowed.body.result?.created).toBe(80);

    // 80 more in another event: refused whole, with what is left, and nothing written.
    const refused = await importGuests(newcomer, second, guestsAt(domain, 100, 80), true);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.status).toBe('resource-exhausted');
    const details = refused.body.error?.details as Record<string, unknown>;
    expect(details).toMatchObject({ reason: 'guest-mail-limit', scope: 'account', requested: 80, remaining: 20 });
    expect(details.retryAfterSeconds).toBeGreaterThan(3_500);
    expect(details.retryAfterSeconds).toBeLessThanOrEqual(3_600);
    expect(await t.db.select().from(order).where(eq(order.eventId, second))).toEqual([]);

    // Imported without emails, then messaged: the message is refused, and no recipient is written.
    expect((await importGuests(newcomer, second, guestsAt(domain, 100, 80), false)).status).toBe(200);
    const preview = await t.call(previewAttendeeMessage, draft(second), newcomer.cookie);
    expect(preview.body.result).toMatchObject({ recipients: 80, guests: 80 });
    const message = await send(newcomer, second);
    expect(message.status).toBe(429);
    expect(message.body.error?.details).toMatchObject({ reason: 'guest-mail-limit', requested: 80, remaining: 20 });

    // What is left may still go, in a third event; then nothing more, in any of them.
    expect((await importGuests(newcomer, third, guestsAt(domain, 200, 20), true)).status).toBe(200);
    const again = await send(newcomer, first);
    expect(again.status).toBe(429);
    expect(again.body.error?.details).toMatchObject({ reason: 'guest-mail-limit', requested: 80, remaining: 0 });
    expect((await importGuests(newcomer, third, guestsAt(domain, 300, 1), true)).status).toBe(429);

    const messages = await t.db.select().from(attendeeMessage).where(inArray(attendeeMessage.eventId, eventIds));
    expect(messages).toEqual([]);
    expect(await t.db.select().from(attendeeMessageRecipient)).not.toContainEqual(
      expect.objectContaining({ email: expect.stringContaining(domain) }),
    );
    expect(await mailedTo(domain)).toBe(100);

    const left = await t.call(guestMailAllowance, { eventId: first }, newcomer.cookie);
    expect(left.body.result).toMatchObject({ remaining: 0, established: false });
    expect(Date.parse(left.body.result!.resetsAt!)).toBeGreaterThan(Date.now());
  });

  it('counts the organization too: a second new account in it gets only what the organization has left', async () => {
    const domain = `relay-${randomUUID().slice(0, 6)}.test`;
    const { newcomer, organizationId, eventIds } = await newcomerWithEvents(2);
    const helper = await t.signUp('Hal Helper');
    await addMember(t, organizationId, helper.user.id, 'admin');
    expect((await importGuests(newcomer, eventIds[0]!, guestsAt(domain, 0, 90), true)).status).toBe(200);
    const refused = await importGuests(helper, eventIds[1]!, guestsAt(domain, 100, 20), true);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.details).toMatchObject({ reason: 'guest-mail-limit', scope: 'organization', remaining: 10 });
    expect((await t.call(guestMailAllowance, { eventId: eventIds[1]! }, helper.cookie)).body.result?.remaining).toBe(10);
    expect(await mailedTo(domain)).toBe(90);
  });

  it('gives an organization that has sold a ticket the higher limits, and never counts buyers', async () => {
    const domain = `relay-${randomUUID().slice(0, 6)}.test`;
    const { newcomer, eventIds } = await newcomerWithEvents(1, 1_500);
    const eventId = eventIds[0]!;
    const buyer = await t.signUp('Bo Buyer');
    const placed = await t.call(
      createOrder,
      { eventId, lines: [{ ticketTypeId: eventTicketType.get(eventId)!, quantity: 1 }] },
      buyer.cookie,
    );
    expect(await payWithTestCard(t, buyer.cookie, placed.body.result!.orderId)).toBe('paid');

    expect((await t.call(guestMailAllowance, { eventId }, newcomer.cookie)).body.result).toMatchObject({
      remaining: 1_000,
      established: true,
    });
    expect((await importGuests(newcomer, eventId, guestsAt(domain, 0, 150), true)).status).toBe(200);
    const preview = await t.call(previewAttendeeMessage, draft(eventId), newcomer.cookie);
    expect(preview.body.result).toMatchObject({ recipients: 151, guests: 150 });
    expect((await send(newcomer, eventId)).status).toBe(200);
    expect((await t.call(guestMailAllowance, { eventId }, newcomer.cookie)).body.result?.remaining).toBe(700);
    expect(await mailedTo(domain)).toBe(300);
  });

  it('lets staff neither see nor use what is left', async () => {
    const { organizationId, eventIds } = await newcomerWithEvents(1);
    const staff = await t.signUp('Stu Staff');
    await addMember(t, organizationId, staff.user.id, 'staff');
    const { status, body } = await t.call(guestMailAllowance, { eventId: eventIds[0]! }, staff.cookie);
    expect(status).toBe(403);
    expect(body.error?.status).toBe('permission-denied');
  });
});
