import { randomUUID } from 'node:crypto';
import { addTicketType, createEvent, publishEvent } from '@admit/shared/events';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addTicketTypeAs, createEventAs, createOrgAs, eventInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from './schema';

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
/** Owner of the organization every test works in. */
let owner: Person;
let admin: Person;
let staff: Person;
/** Owner of another organization: a stranger to ours. */
let outsider: Person;
let organizationId: string;
let otherOrganizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  [owner, admin, staff, outsider] = await Promise.all([
    t.signUp('Olivia Owner'),
    t.signUp('Adam Admin'),
    t.signUp('Sam Staff'),
    t.signUp('Oscar Outsider'),
  ]);
  organizationId = (await createOrgAs(t, owner.cookie, 'Night Owls')).organizationId;
  otherOrganizationId = (await createOrgAs(t, outsider.cookie, 'Early Birds')).organizationId;
  await addMember(t, organizationId, admin.user.id, 'admin');
  await addMember(t, organizationId, staff.user.id, 'staff');
});
afterAll(() => t?.close());

async function storedEvent(eventId: string) {
  const [row] = await t.db.select().from(event).where(eq(event.id, eventId));
  return row;
}

const fieldPaths = (body: { error: { details?: { fields?: { path: string }[] } } }) =>
  body.error.details?.fields?.map((field) => field.path);

describe('events.create', () => {
  it('creates a draft event whose local start and end in Europe/Berlin are stored as UTC instants', async () => {
    const { status, body } = await t.call(createEvent, eventInput(organizationId), owner.cookie);

    expect(status).toBe(200);
    expect(body.result.slug).toMatch(/^jazz-night-[0-9a-f]{6}$/);
    const stored = await storedEvent(body.result.eventId);
    expect(stored).toMatchObject({
      organizationId,
      slug: body.result.slug,
      title: 'Jazz night',
      description: '',
      venue: 'Club Blau',
      timeZone: 'Europe/Berlin',
      capacity: 100,
      sold: 0,
      held: 0,
      status: 'draft',
    });
    expect(stored!.startsAt.toISOString()).toBe('2030-01-10T18:00:00.000Z');
    expect(stored!.endsAt.toISOString()).toBe('2030-01-10T22:00:00.000Z');
  });

  it('applies summer time: 19:00 in Berlin in July is 17:00 UTC', async () => {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId, {
      startsAtLocal: '2030-07-10T19:00',
      endsAtLocal: '2030-07-10T23:00',
    });
    expect((await storedEvent(eventId))!.startsAt.toISOString()).toBe('2030-07-10T17:00:00.000Z');
  });

  it('stores an evening in New York as the next day in UTC', async () => {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId, {
      timeZone: 'America/New_York',
      startsAtLocal: '2030-01-10T19:00',
      endsAtLocal: '2030-01-10T23:30',
    });
    const stored = await storedEvent(eventId);
    expect(stored!.startsAt.toISOString()).toBe('2030-01-11T00:00:00.000Z');
    expect(stored!.endsAt.toISOString()).toBe('2030-01-11T04:30:00.000Z');
  });

  it('trims the title and venue and keeps a description', async () => {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId, {
      title: '  Jazz night  ',
      venue: ' Club Blau ',
      description: 'Bring friends.',
    });
    expect(await storedEvent(eventId)).toMatchObject({ title: 'Jazz night', venue: 'Club Blau', description: 'Bring friends.' });
  });

  it('lets an admin of the organization create an event', async () => {
    const { status, body } = await t.call(createEvent, eventInput(organizationId), admin.cookie);
    expect(status).toBe(200);
    expect((await storedEvent(body.result.eventId))!.organizationId).toBe(organizationId);
  });

  it('refuses a staff member with permission-denied', async () => {
    const { status, body } = await t.call(createEvent, eventInput(organizationId, { title: 'Staff party' }), staff.cookie);
    expect(status).toBe(403);
    expect(body.error).toMatchObject({ status: 'permission-denied', details: { required: 'admin', role: 'staff' } });
    expect(await t.db.select().from(event).where(eq(event.title, 'Staff party'))).toEqual([]);
  });

  it("answers not-found to the owner of another organization, so that our organization's id reveals nothing", async () => {
    const { status, body } = await t.call(createEvent, eventInput(organizationId, { title: 'Hijack' }), outsider.cookie);
    expect(status).toBe(404);
    expect(body.error.status).toBe('not-found');
    expect(await t.db.select().from(event).where(eq(event.title, 'Hijack'))).toEqual([]);
  });

  it('answers not-found for an organization that does not exist', async () => {
    const { status, body } = await t.call(createEvent, eventInput(randomUUID()), owner.cookie);
    expect(status).toBe(404);
    expect(body.error.status).toBe('not-found');
  });

  it('answers unauthenticated when signed out', async () => {
    const { status, body } = await t.call(createEvent, eventInput(organizationId));
    expect(status).toBe(401);
    expect(body.error.status).toBe('unauthenticated');
  });

  it('refuses an end before the start with invalid-argument on endsAtLocal', async () => {
    const { status, body } = await t.call(
      createEvent,
      eventInput(organizationId, { endsAtLocal: '2030-01-10T18:59' }),
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(fieldPaths(body)).toEqual(['endsAtLocal']);
  });

  it('refuses an end equal to the start with invalid-argument on endsAtLocal', async () => {
    const { status, body } = await t.call(
      createEvent,
      eventInput(organizationId, { endsAtLocal: '2030-01-10T19:00' }),
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(fieldPaths(body)).toEqual(['endsAtLocal']);
  });

  it.each(['Mars/Olympus_Mons', 'Europe/Berlin; drop table event', '', 'x'.repeat(65)])(
    'refuses the time zone %j with invalid-argument on timeZone',
    async (timeZone) => {
      const { status, body } = await t.call(createEvent, eventInput(organizationId, { timeZone }), owner.cookie);
      expect(status).toBe(400);
      expect(body.error.status).toBe('invalid-argument');
      expect(new Set(fieldPaths(body))).toEqual(new Set(['timeZone']));
    },
  );

  it.each([
    ['a one-letter title', { title: 'x' }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a title that is a number', { title: 42 }, 'title'],
    ['an empty venue', { venue: '' }, 'venue'],
    ['a title with a line break', { title: 'Summer concert\nBring cash' }, 'title'],
    ['a title with a tab', { title: 'Summer\tconcert' }, 'title'],
    ['a title with a bell (U+0007)', { title: 'Summer concert\u0007' }, 'title'],
    ['a title with DEL (U+007F)', { title: 'Summer\u007fconcert' }, 'title'],
    ['a venue with a line break', { venue: 'Town hall\r\nSubject: free tickets' }, 'venue'],
    ['a venue with a NUL', { venue: 'Town\u0000hall' }, 'venue'],
    ['a description of 10,001 characters', { description: 'x'.repeat(10_001) }, 'description'],
    ['a capacity of 0', { capacity: 0 }, 'capacity'],
    ['a negative capacity', { capacity: -5 }, 'capacity'],
    ['a fractional capacity', { capacity: 1.5 }, 'capacity'],
    ['a capacity over a million', { capacity: 1_000_001 }, 'capacity'],
    ['a capacity given as a string', { capacity: '100' }, 'capacity'],
    ['an empty organization id', { organizationId: '' }, 'organizationId'],
    ['an organization id of 65 characters', { organizationId: 'x'.repeat(65) }, 'organizationId'],
    ['a start with a space instead of T', { startsAtLocal: '2030-01-10 19:00' }, 'startsAtLocal'],
    ['a start given as a UTC instant', { startsAtLocal: '2030-01-10T19:00:00Z' }, 'startsAtLocal'],
    ['a start given as a number', { startsAtLocal: 1894302000000 }, 'startsAtLocal'],
    ['a status the caller may not set', { status: 'published' }, ''],
  ])('refuses %s with invalid-argument naming the field', async (_label, overrides, path) => {
    const { status, body } = await t.callWithAnyInput(createEvent, { ...eventInput(organizationId), ...overrides }, owner.cookie);
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(fieldPaths(body)).toContain(path);
  });

  it('refuses a day that does not exist, 30 February, with invalid-argument on startsAtLocal', async () => {
    const { status, body } = await t.call(
      createEvent,
      eventInput(organizationId, { startsAtLocal: '2030-02-30T19:00', endsAtLocal: '2030-03-31T23:00' }),
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(fieldPaths(body)).toEqual(['startsAtLocal']);
  });
});

describe('events.addTicketType', () => {
  let eventId: string;
  beforeAll(async () => {
    eventId = (await createEventAs(t, owner.cookie, organizationId)).eventId;
  });

  it('adds ticket types in order, with a default per-order limit of 10', async () => {
    const first = await t.call(addTicketType, { eventId, name: 'Early bird', capacity: 20 }, owner.cookie);
    const second = await t.call(addTicketType, { eventId, name: 'Regular', capacity: 80, maxPerOrder: 4 }, owner.cookie);

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const types = await t.db.select().from(ticketType).where(eq(ticketType.eventId, eventId));
    const byId = new Map(types.map((type) => [type.id, type]));
    expect(byId.get(first.body.result.ticketTypeId)).toMatchObject({
      name: 'Early bird',
      capacity: 20,
      maxPerOrder: 10,
      price: 0,
      sold: 0,
      held: 0,
      hidden: false,
      position: 0,
    });
    expect(byId.get(second.body.result.ticketTypeId)).toMatchObject({
      name: 'Regular',
      capacity: 80,
      maxPerOrder: 4,
      position: 1,
    });
  });

  it('lets an admin add a ticket type', async () => {
    const { status } = await t.call(addTicketType, { eventId, name: 'Admin tickets', capacity: 5 }, admin.cookie);
    expect(status).toBe(200);
  });

  it('refuses a staff member with permission-denied', async () => {
    const { status, body } = await t.call(addTicketType, { eventId, name: 'Staff tickets', capacity: 5 }, staff.cookie);
    expect(status).toBe(403);
    expect(body.error.status).toBe('permission-denied');
    expect(await t.db.select().from(ticketType).where(eq(ticketType.name, 'Staff tickets'))).toEqual([]);
  });

  it('answers not-found to the owner of another organization', async () => {
    const { status, body } = await t.call(addTicketType, { eventId, name: 'Stranger tickets', capacity: 5 }, outsider.cookie);
    expect(status).toBe(404);
    expect(body.error.status).toBe('not-found');
    expect(await t.db.select().from(ticketType).where(eq(ticketType.name, 'Stranger tickets'))).toEqual([]);
  });

  it('answers not-found for an event that does not exist', async () => {
    const { status } = await t.call(addTicketType, { eventId: randomUUID(), name: 'Ghost', capacity: 5 }, owner.cookie);
    expect(status).toBe(404);
  });

  it('answers unauthenticated when signed out', async () => {
    const { status, body } = await t.call(addTicketType, { eventId, name: 'Anonymous', capacity: 5 });
    expect(status).toBe(401);
    expect(body.error.status).toBe('unauthenticated');
  });

  it('answers failed-precondition for a cancelled event', async () => {
    const cancelled = (await createEventAs(t, owner.cookie, organizationId)).eventId;
    await t.db.update(event).set({ status: 'cancelled' }).where(eq(event.id, cancelled));
    const { status, body } = await t.call(addTicketType, { eventId: cancelled, name: 'Late', capacity: 5 }, owner.cookie);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ status: 'failed-precondition', details: { status: 'cancelled' } });
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['a capacity of 0', { capacity: 0 }, 'capacity'],
    ['a fractional capacity', { capacity: 2.5 }, 'capacity'],
    ['a null capacity', { capacity: null }, 'capacity'],
    ['a per-order limit of 0', { maxPerOrder: 0 }, 'maxPerOrder'],
    ['a per-order limit of 101', { maxPerOrder: 101 }, 'maxPerOrder'],
    ['an empty event id', { eventId: '' }, 'eventId'],
    ['a negative price', { price: -1 }, 'price'],
    ['a fractional price (prices are minor units)', { price: 9.99 }, 'price'],
    [
      'sales that end before they start',
      { salesStartLocal: '2030-06-01T10:00', salesEndLocal: '2030-05-01T10:00' },
      'salesEndLocal',
    ],
  ])('refuses %s with invalid-argument naming the field', async (_label, overrides, path) => {
    const { status, body } = await t.callWithAnyInput(
      addTicketType,
      { eventId, name: 'Fine', capacity: 5, ...overrides },
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(fieldPaths(body)).toContain(path);
  });
});

describe('events.publish', () => {
  async function eventWithTicketType() {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId);
    await addTicketTypeAs(t, owner.cookie, eventId, { capacity: 10 });
    return eventId;
  }

  it('publishes a draft event that has a ticket type', async () => {
    const eventId = await eventWithTicketType();
    const { status, body } = await t.call(publishEvent, { eventId }, owner.cookie);
    expect(status).toBe(200);
    expect(body.result).toEqual({ status: 'published' });
    expect((await storedEvent(eventId))!.status).toBe('published');
  });

  it('lets an admin publish', async () => {
    const eventId = await eventWithTicketType();
    expect((await t.call(publishEvent, { eventId }, admin.cookie)).status).toBe(200);
  });

  it('refuses a staff member with permission-denied and leaves the event a draft', async () => {
    const eventId = await eventWithTicketType();
    const { status, body } = await t.call(publishEvent, { eventId }, staff.cookie);
    expect(status).toBe(403);
    expect(body.error.status).toBe('permission-denied');
    expect((await storedEvent(eventId))!.status).toBe('draft');
  });

  it('answers not-found to the owner of another organization and leaves the event a draft', async () => {
    const eventId = await eventWithTicketType();
    const { status } = await t.call(publishEvent, { eventId }, outsider.cookie);
    expect(status).toBe(404);
    expect((await storedEvent(eventId))!.status).toBe('draft');
  });

  it('answers unauthenticated when signed out', async () => {
    const eventId = await eventWithTicketType();
    expect((await t.call(publishEvent, { eventId })).status).toBe(401);
    expect((await storedEvent(eventId))!.status).toBe('draft');
  });

  it('answers failed-precondition for an event without ticket types', async () => {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId);
    const { status, body } = await t.call(publishEvent, { eventId }, owner.cookie);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'no-ticket-types' } });
    expect((await storedEvent(eventId))!.status).toBe('draft');
  });

  it('answers failed-precondition when the event is already published', async () => {
    const eventId = await eventWithTicketType();
    expect((await t.call(publishEvent, { eventId }, owner.cookie)).status).toBe(200);
    const again = await t.call(publishEvent, { eventId }, owner.cookie);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ status: 'failed-precondition', details: { status: 'published' } });
  });

  it('does not bring a cancelled event back', async () => {
    const eventId = await eventWithTicketType();
    await t.db.update(event).set({ status: 'cancelled' }).where(eq(event.id, eventId));
    const { status, body } = await t.call(publishEvent, { eventId }, owner.cookie);
    expect(status).toBe(400);
    expect(body.error.status).toBe('failed-precondition');
    expect((await storedEvent(eventId))!.status).toBe('cancelled');
  });

  it('answers not-found for an event of the other organization even to our own owner', async () => {
    const { eventId } = await createEventAs(t, outsider.cookie, otherOrganizationId);
    await addTicketTypeAs(t, outsider.cookie, eventId, { capacity: 10 });
    const { status } = await t.call(publishEvent, { eventId }, owner.cookie);
    expect(status).toBe(404);
    expect((await storedEvent(eventId))!.status).toBe('draft');
  });

  it.each([
    [{}, 'eventId'],
    [{ eventId: 7 }, 'eventId'],
    [{ eventId: 'e', status: 'published' }, ''],
  ])('refuses %j with invalid-argument naming the field %j', async (data, path) => {
    const { status, body } = await t.callWithAnyInput(publishEvent, data, owner.cookie);
    expect(status).toBe(400);
    expect(fieldPaths(body)).toContain(path);
  });
});
